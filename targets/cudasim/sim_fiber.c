/* Fiber stacks and switches (sim_fiber.h). */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "targets/cudasim/sim_fiber.h"

#ifdef UF__SIM_ASAN
#include <sanitizer/common_interface_defs.h>
/* instrumented frames are larger */
#define UF__SIM_STACK (256u * 1024u)
#else
#define UF__SIM_STACK (64u * 1024u)
#endif

#ifdef UF__SIM_ASM_SWITCH
/* uf__sim_ctx_switch(save, to): pushes the callee-saved registers and
 * the floating-point control words, stores the stack pointer in *save,
 * loads `to` and pops the same from there. uf__sim_ctx_start: where a new
 * fiber's first switch returns to; calls entry (in r13), which never
 * returns. */
void uf__sim_ctx_switch(void **save, void *to);
void uf__sim_ctx_start(void);
__asm__(".text\n"
        ".globl uf__sim_ctx_switch\n"
        ".hidden uf__sim_ctx_switch\n"
        ".type uf__sim_ctx_switch,@function\n"
        "uf__sim_ctx_switch:\n"
        "  pushq %rbp\n"
        "  pushq %rbx\n"
        "  pushq %r12\n"
        "  pushq %r13\n"
        "  pushq %r14\n"
        "  pushq %r15\n"
        "  subq $8, %rsp\n"
        "  stmxcsr (%rsp)\n"
        "  fnstcw 4(%rsp)\n"
        "  movq %rsp, (%rdi)\n"
        "  movq %rsi, %rsp\n"
        "  ldmxcsr (%rsp)\n"
        "  fldcw 4(%rsp)\n"
        "  addq $8, %rsp\n"
        "  popq %r15\n"
        "  popq %r14\n"
        "  popq %r13\n"
        "  popq %r12\n"
        "  popq %rbx\n"
        "  popq %rbp\n"
        "  ret\n"
        ".size uf__sim_ctx_switch, .-uf__sim_ctx_switch\n"
        ".globl uf__sim_ctx_start\n"
        ".hidden uf__sim_ctx_start\n"
        ".type uf__sim_ctx_start,@function\n"
        "uf__sim_ctx_start:\n"
        "  callq *%r13\n"
        "  ud2\n"
        ".size uf__sim_ctx_start, .-uf__sim_ctx_start\n");
#endif

int uf__sim_fiber_init(uf__sim_fiber *f, void (*entry)(void))
{
    memset(f, 0, sizeof *f);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t size = UF__SIM_STACK + page;
    char *map = mmap(NULL, size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (map == MAP_FAILED)
        return -1;
    mprotect(map, page, PROT_NONE); /* an overflow faults, not corrupts */
    f->map = map;
    f->map_size = size;
    f->stack_bottom = map + page;
    f->stack_size = UF__SIM_STACK;
#ifdef UF__SIM_ASM_SWITCH
    uintptr_t top = ((uintptr_t)map + size) & ~(uintptr_t)15;
    uint64_t *slot = (uint64_t *)top;
    uint32_t mxcsr;
    uint16_t fpucw;
    __asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
    __asm__ volatile("fnstcw %0" : "=m"(fpucw));
    slot[-1] = (uint64_t)(uintptr_t)uf__sim_ctx_start; /* return address */
    slot[-2] = 0;                                      /* rbp */
    slot[-3] = 0;                                      /* rbx */
    slot[-4] = 0;                                      /* r12 */
    slot[-5] = (uint64_t)(uintptr_t)entry;             /* r13 */
    slot[-6] = 0;                                      /* r14 */
    slot[-7] = 0;                                      /* r15 */
    slot[-8] = (uint64_t)mxcsr | (uint64_t)fpucw << 32;
    f->sp = &slot[-8];
#else
    if (getcontext(&f->uc) != 0) {
        munmap(map, size);
        f->map = NULL;
        return -1;
    }
    f->uc.uc_stack.ss_sp = map + page;
    f->uc.uc_stack.ss_size = UF__SIM_STACK;
    f->uc.uc_link = NULL;
    makecontext(&f->uc, entry, 0);
#endif
    return 0;
}

void uf__sim_fiber_destroy(uf__sim_fiber *f)
{
    if (f->map)
        munmap(f->map, f->map_size);
    f->map = NULL;
}

void uf__sim_fiber_switch(uf__sim_fiber *from, uf__sim_fiber *to,
                          uf__sim_fiber *main)
{
#ifdef UF__SIM_ASAN
    __sanitizer_start_switch_fiber(&from->asan_fake, to->stack_bottom,
                                   to->stack_size);
#endif
#ifdef UF__SIM_ASM_SWITCH
    uf__sim_ctx_switch(&from->sp, to->sp);
#else
    swapcontext(&from->uc, &to->uc);
#endif
#ifdef UF__SIM_ASAN
    const void *bottom;
    size_t size;
    __sanitizer_finish_switch_fiber(from->asan_fake, &bottom, &size);
    if (from != main) { /* back in a fiber: main is where we came from */
        main->stack_bottom = bottom;
        main->stack_size = size;
    }
#else
    (void)main;
#endif
}

void uf__sim_fiber_started(uf__sim_fiber *main)
{
#ifdef UF__SIM_ASAN
    __sanitizer_finish_switch_fiber(NULL, &main->stack_bottom,
                                    &main->stack_size);
#else
    (void)main;
#endif
}
