/* The GNU build ID of the binary ufjit's code is linked into (libufjit.so,
 * or the program holding libufjit.a): part of the disk cache's key, so
 * that a rebuild of ufjit from changed sources never loads object code an
 * older build wrote under the same version number. */
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <llvm/Config/llvm-config.h>

#include "compiler/cache/build_id.h"

static char build_id[2 * 64 + 1] = "none";
static pthread_once_t build_id_once = PTHREAD_ONCE_INIT;

/* Hex of the NT_GNU_BUILD_ID note among a loaded object's PT_NOTEs. */
static bool note_id(const struct dl_phdr_info *info)
{
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE)
            continue;
        const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr);
        const char *end = p + ph->p_memsz;
        while (p + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
            const char *name = p + sizeof *n;
            const unsigned char *desc =
                (const unsigned char *)(name + ((n->n_namesz + 3) & ~3u));
            if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
                memcmp(name, "GNU", 4) == 0 && n->n_descsz <= 64) {
                for (unsigned k = 0; k < n->n_descsz; k++)
                    snprintf(build_id + 2 * k, 3, "%02x", desc[k]);
                return true;
            }
            p = (const char *)desc + ((n->n_descsz + 3) & ~3u);
        }
    }
    return false;
}

static int find_self(struct dl_phdr_info *info, size_t size, void *base)
{
    (void)size;
    if ((void *)info->dlpi_addr != base)
        return 0;
    return note_id(info) ? 1 : 0;
}

static void read_build_id(void)
{
    Dl_info dl;
    if (dladdr((void *)&read_build_id, &dl) == 0)
        return;
    /* dlpi_addr is the load bias: 0 for a non-PIE executable, whose
     * dli_fbase is its first mapped address instead */
    if (dl_iterate_phdr(find_self, dl.dli_fbase) == 0)
        dl_iterate_phdr(find_self, NULL);
}

const char *uf__build_id(void)
{
    pthread_once(&build_id_once, read_build_id);
    return build_id;
}

const char *uf__llvm_version(void)
{
    return LLVM_VERSION_STRING;
}
