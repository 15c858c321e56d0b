// Code-generation options through LLVM's C++ API (see llvm_options.h):
// LLVM-C only parses command lines, once (a second -disable-lsr is a
// fatal "may only occur zero or one times"), while ufjit sets the option
// per compilation. Compiled as LLVM is (no exceptions, no RTTI).
#include <llvm/Support/CommandLine.h>

#include "compiler/host/llvm_options.h"

// A boolean option of LLVM's code generator by name: the previous value,
// or -1 when this LLVM has none.
static int set_bool(const char *name, int on)
{
    auto &opts = llvm::cl::getRegisteredOptions();
    auto it = opts.find(name);
    if (it == opts.end())
        return -1;
    // declared in LLVM's TargetPassConfig.cpp as cl::opt<bool> (14 to 16)
    auto *o = static_cast<llvm::cl::opt<bool> *>(it->second);
    int prev = o->getValue() ? 1 : 0;
    o->setValue(on != 0);
    return prev;
}

extern "C" int uf__llvm_disable_lsr(int on)
{
    return set_bool("disable-lsr", on);
}

extern "C" int uf__llvm_disable_machine_licm(int on)
{
    return set_bool("disable-machine-licm", on);
}
