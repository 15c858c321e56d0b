// LLVM's dead ends, named (see llvm_fatal.h). Compiled with RTTI: the
// terminate handler compares the type of the exception in flight with
// std::bad_alloc.
#include <cstdlib>
#include <cxxabi.h>
#include <exception>
#include <new>
#include <typeinfo>
#include <unistd.h>

#include <llvm/Support/ErrorHandling.h>

#include "compiler/host/llvm_fatal.h"

static std::terminate_handler previous_terminate;

// Only async-signal-safe writes: the heap may be exhausted.
static void say(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    ssize_t w = write(STDERR_FILENO, s, n);
    (void)w;
}

static void out_of_memory_line()
{
    say("ufjit: out of memory while LLVM compiled a kernel: LLVM cannot "
        "recover from this, so the process ends\n");
}

static void bad_alloc_handler(void *, const char *, bool)
{
    out_of_memory_line();
    std::abort(); // LLVM requires that this handler not return
}

static void fatal_handler(void *, const char *reason, bool)
{
    say("ufjit: LLVM stopped with a fatal error (the process ends): ");
    say(reason != nullptr ? reason : "no reason given");
    say("\n");
    // LLVM exits with status 1 when this returns
}

// An exception thrown through LLVM (built without exceptions) finds no
// handler, so it is never caught: std::current_exception() is empty then,
// but the ABI still knows its type.
static void terminate_handler()
{
    const std::type_info *t = abi::__cxa_current_exception_type();
    if (t != nullptr && *t == typeid(std::bad_alloc))
        out_of_memory_line();
    if (previous_terminate != nullptr)
        previous_terminate();
    std::abort();
}

extern "C" void uf__llvm_install_fatal_handlers(void)
{
    llvm::install_fatal_error_handler(fatal_handler, nullptr);
    llvm::install_bad_alloc_error_handler(bad_alloc_handler, nullptr);
    previous_terminate = std::set_terminate(terminate_handler);
}
