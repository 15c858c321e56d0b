/* The driver-table entries cudasim implements, one per uf__cu_driver
 * field (targets/cuda/cu_driver.h), named uf__sim_<field>; sim_driver.c
 * puts them in the table. */
#ifndef UF_TARGETS_CUDASIM_SIM_ENTRIES_H
#define UF_TARGETS_CUDASIM_SIM_ENTRIES_H

#include "targets/cuda/cu_driver.h"

uf__cu_result uf__sim_init(unsigned flags);
uf__cu_result uf__sim_driver_version(int *version);
uf__cu_result uf__sim_get_error_name(uf__cu_result rc, const char **s);
uf__cu_result uf__sim_get_error_string(uf__cu_result rc, const char **s);
uf__cu_result uf__sim_device_count(int *n);
uf__cu_result uf__sim_device_get(uf__cu_device *d, int ordinal);
uf__cu_result uf__sim_device_name(char *name, int len, uf__cu_device d);
uf__cu_result uf__sim_device_attribute(int *v, int attr, uf__cu_device d);
uf__cu_result uf__sim_device_total_mem(size_t *bytes, uf__cu_device d);
uf__cu_result uf__sim_primary_ctx_retain(uf__cu_ctx *c, uf__cu_device d);
uf__cu_result uf__sim_primary_ctx_release(uf__cu_device d);
uf__cu_result uf__sim_ctx_set_current(uf__cu_ctx c);
uf__cu_result uf__sim_ctx_get_current(uf__cu_ctx *c);
uf__cu_result uf__sim_ctx_synchronize(void);
uf__cu_result uf__sim_module_load_data(uf__cu_module *m, const void *image);
uf__cu_result uf__sim_module_unload(uf__cu_module m);
uf__cu_result uf__sim_module_get_function(uf__cu_func *f, uf__cu_module m, const char *name);
uf__cu_result uf__sim_func_get_attribute(int *v, int attr, uf__cu_func f);
uf__cu_result uf__sim_launch_kernel(uf__cu_func f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned shared_bytes, uf__cu_stream s, void **params, void **extra);
uf__cu_result uf__sim_occupancy_max_block(int *min_grid, int *block, uf__cu_func f, size_t shared_bytes, int block_limit);
uf__cu_result uf__sim_mem_alloc(uf__cu_dptr *p, size_t bytes);
uf__cu_result uf__sim_mem_free(uf__cu_dptr p);
uf__cu_result uf__sim_mem_get_info(size_t *free_bytes, size_t *total_bytes);
uf__cu_result uf__sim_memset_d8(uf__cu_dptr p, unsigned char v, size_t n);
uf__cu_result uf__sim_memset_d8_async(uf__cu_dptr p, unsigned char v, size_t n, uf__cu_stream s);
uf__cu_result uf__sim_memcpy_htod(uf__cu_dptr dst, const void *src, size_t n);
uf__cu_result uf__sim_memcpy_dtoh(void *dst, uf__cu_dptr src, size_t n);
uf__cu_result uf__sim_memcpy_dtod(uf__cu_dptr dst, uf__cu_dptr src, size_t n);
uf__cu_result uf__sim_memcpy_htod_async(uf__cu_dptr dst, const void *src, size_t n, uf__cu_stream s);
uf__cu_result uf__sim_memcpy_dtoh_async(void *dst, uf__cu_dptr src, size_t n, uf__cu_stream s);
uf__cu_result uf__sim_memcpy_dtod_async(uf__cu_dptr dst, uf__cu_dptr src, size_t n, uf__cu_stream s);
uf__cu_result uf__sim_pointer_get_attribute(void *data, int attr, uf__cu_dptr p);
uf__cu_result uf__sim_mem_host_alloc(void **p, size_t bytes, unsigned flags);
uf__cu_result uf__sim_mem_free_host(void *p);
uf__cu_result uf__sim_mem_host_get_device_pointer(uf__cu_dptr *d, void *p, unsigned flags);
uf__cu_result uf__sim_mem_host_register(void *p, size_t bytes, unsigned flags);
uf__cu_result uf__sim_mem_host_unregister(void *p);
uf__cu_result uf__sim_stream_create(uf__cu_stream *s, unsigned flags);
uf__cu_result uf__sim_stream_destroy(uf__cu_stream s);
uf__cu_result uf__sim_stream_synchronize(uf__cu_stream s);
uf__cu_result uf__sim_stream_query(uf__cu_stream s);
uf__cu_result uf__sim_stream_wait_event(uf__cu_stream s, uf__cu_event e, unsigned flags);
uf__cu_result uf__sim_event_create(uf__cu_event *e, unsigned flags);
uf__cu_result uf__sim_event_destroy(uf__cu_event e);
uf__cu_result uf__sim_event_record(uf__cu_event e, uf__cu_stream s);
uf__cu_result uf__sim_event_query(uf__cu_event e);
uf__cu_result uf__sim_event_synchronize(uf__cu_event e);
uf__cu_result uf__sim_event_elapsed_time(float *ms, uf__cu_event start, uf__cu_event end);
uf__cu_result uf__sim_ipc_get_mem_handle(uf__cu_ipc_handle *h, uf__cu_dptr p);
uf__cu_result uf__sim_ipc_open_mem_handle(uf__cu_dptr *p, uf__cu_ipc_handle h, unsigned flags);
uf__cu_result uf__sim_ipc_close_mem_handle(uf__cu_dptr p);

#endif
