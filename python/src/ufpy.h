/* ufjit._core: the CPython extension under the ufjit package. A thin
 * layer: arrays cross by the buffer protocol without copies, kernels are
 * compiled and called by the C library, errors become the exceptions of
 * ufjit.errors (built by a factory the package registers). */
#ifndef UFPY_H
#define UFPY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdbool.h>
#include <ufjit/ufjit.h>

/* ---- arrays (ufpy_array.c) ---- */

/* _core.Array: a uf_array exported through the buffer protocol, so that
 * numpy.asarray() views it without a copy and keeps it alive. */
typedef struct {
    PyObject_HEAD
    uf_array *a;
    Py_ssize_t shape[UF_MAXDIMS];
    Py_ssize_t strides[UF_MAXDIMS];
} ufpy_array;

extern PyTypeObject ufpy_array_type;

/* A new _core.Array owning the reference `a` (released on failure). */
PyObject *ufpy_array_new(uf_array *a);
/* A uf_array over obj's memory: a _core.Array's own array (retained), or
 * any object with the buffer protocol (the buffer is held until the
 * array's last view goes). `writable`: an output. NULL with an exception
 * set on failure. */
uf_array *ufpy_array_from_object(PyObject *obj, bool writable);

/* ---- kernels (ufpy_kernel.c) ---- */

extern PyTypeObject ufpy_module_type;
extern PyTypeObject ufpy_func_type;

/* The uf_func of a _core.Func object (the caller checked its type). */
uf_func *ufpy_func_ptr(PyObject *func);

/* _core.UFuncBase (ufpy_fastcall.c) */
extern PyTypeObject ufpy_ufuncbase_type;

/* A new _core.Module owning m (freed on failure). */
PyObject *ufpy_module_new(uf_module *m);

/* ---- CUDA (ufpy_cuda.c) ---- */

extern PyTypeObject ufpy_stream_type;
/* None or 0 -> NULL (the legacy default stream), a _core.Stream -> its
 * stream; -1 with an exception otherwise. */
int ufpy_stream_of(PyObject *o, uf_stream **out);
extern PyMethodDef ufpy_cuda_methods[];
/* _core.Event and event_create (ufpy_event.c) */
extern PyTypeObject ufpy_event_type;
extern PyMethodDef ufpy_event_methods[];
/* Func.launch's body: (grid, block, args, stream, shared, target,
 * forall, n) */
PyObject *ufpy_launch(uf_func *f, PyObject *args);

/* ---- interop (ufpy_interop.c) ---- */

extern PyMethodDef ufpy_interop_methods[];

/* ---- memory managers (ufpy_mm.c) ---- */

extern PyTypeObject ufpy_mmdriver_type;
extern PyMethodDef ufpy_mm_methods[];

/* ---- the module (ufpy_module.c) ---- */

/* The process's context, made on first use; NULL with an exception. */
uf_context *ufpy_context(void);
/* Raises err as the exception ufjit.errors chooses for it; returns NULL. */
PyObject *ufpy_raise(const uf_error *err);

#endif
