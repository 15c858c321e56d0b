/* Fibers for simulated CUDA threads: a small stack (with a guard page)
 * and a context to switch to. A fiber is only ever switched to from its
 * worker's own context (`main`, no stack of its own here) and back, so
 * each switch names both. x86-64 switches with a few instructions of
 * assembly (callee-saved registers, MXCSR and the x87 control word);
 * elsewhere, and under AddressSanitizer (whose swapcontext interceptor
 * keeps its shadow of the stacks right), ucontext's swapcontext does. With
 * ASan the switches are announced (__sanitizer_start_switch_fiber). */
#ifndef UF_TARGETS_CUDASIM_SIM_FIBER_H
#define UF_TARGETS_CUDASIM_SIM_FIBER_H

#include <stddef.h>
#include <stdint.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UF__SIM_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define UF__SIM_ASAN 1
#endif

/* Our own switch on x86-64, also under ASan (with its fiber annotations):
 * ASan's swapcontext interceptor prints a warning on stderr, which
 * breaks every test that checks a clean stderr. */
#if defined(__x86_64__)
#define UF__SIM_ASM_SWITCH 1
#else
#include <ucontext.h>
#endif

typedef struct uf__sim_fiber uf__sim_fiber;
struct uf__sim_fiber {
#ifdef UF__SIM_ASM_SWITCH
    void *sp; /* saved stack pointer while switched out */
#else
    ucontext_t uc;
#endif
    char *map;        /* the mapping: guard page, then the stack */
    size_t map_size;
    const void *stack_bottom; /* for ASan: the stack's extent */
    size_t stack_size;
    void *asan_fake;
    /* the block scheduler's (sim_block.c) */
    uf__sim_fiber *next;
    uint32_t tid;
};

/* Prepares f to start running entry() on its own new stack; 0, or -1
 * when the stack cannot be mapped. */
int uf__sim_fiber_init(uf__sim_fiber *f, void (*entry)(void));
void uf__sim_fiber_destroy(uf__sim_fiber *f);
/* Switches from `from` (running now) to `to`; returns when something
 * switches back. One of them is `main`, the worker's context. */
void uf__sim_fiber_switch(uf__sim_fiber *from, uf__sim_fiber *to,
                          uf__sim_fiber *main);
/* The first call of a fiber's entry, before anything else. */
void uf__sim_fiber_started(uf__sim_fiber *main);

#endif
