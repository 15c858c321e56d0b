// Fast-math flags through LLVM's C++ API: LLVM-C 14 can neither set nor
// read them. The one other C++ file of the library besides the TBB layer;
// it uses only LLVM's headers (no exceptions, no RTTI, as LLVM is built).
#include <llvm/IR/Function.h>
#include <llvm/IR/Instruction.h>
#include <llvm/IR/Operator.h>

#include "compiler/host/llvm_fastmath.h"

namespace {

llvm::FastMathFlags to_llvm(unsigned flags)
{
    llvm::FastMathFlags f;
    f.setAllowReassoc(flags & UF__FMF_REASSOC);
    f.setNoNaNs(flags & UF__FMF_NNAN);
    f.setNoInfs(flags & UF__FMF_NINF);
    f.setNoSignedZeros(flags & UF__FMF_NSZ);
    f.setAllowReciprocal(flags & UF__FMF_ARCP);
    f.setAllowContract(flags & UF__FMF_CONTRACT);
    f.setApproxFunc(flags & UF__FMF_AFN);
    return f;
}

} // namespace

extern "C" void uf__llvm_fastmath_function(LLVMValueRef fn, unsigned flags)
{
    if (!flags)
        return;
    llvm::FastMathFlags add = to_llvm(flags);
    for (llvm::BasicBlock &bb : *llvm::unwrap<llvm::Function>(fn))
        for (llvm::Instruction &i : bb)
            if (llvm::isa<llvm::FPMathOperator>(&i)) {
                llvm::FastMathFlags f = i.getFastMathFlags();
                f |= add;
                i.setFastMathFlags(f);
            }
}

extern "C" unsigned uf__llvm_get_fmf(LLVMValueRef inst)
{
    auto *i = llvm::dyn_cast<llvm::Instruction>(llvm::unwrap(inst));
    if (!i || !llvm::isa<llvm::FPMathOperator>(i))
        return 0;
    llvm::FastMathFlags f = i->getFastMathFlags();
    const struct {
        bool on;
        unsigned bit;
    } bits[] = {{f.allowReassoc(), UF__FMF_REASSOC},
                {f.noNaNs(), UF__FMF_NNAN},
                {f.noInfs(), UF__FMF_NINF},
                {f.noSignedZeros(), UF__FMF_NSZ},
                {f.allowReciprocal(), UF__FMF_ARCP},
                {f.allowContract(), UF__FMF_CONTRACT},
                {f.approxFunc(), UF__FMF_AFN}};
    unsigned r = 0;
    for (const auto &b : bits)
        r |= b.on ? b.bit : 0u;
    return r;
}

extern "C" void uf__llvm_set_fmf(LLVMValueRef inst, unsigned flags)
{
    auto *i = llvm::dyn_cast<llvm::Instruction>(llvm::unwrap(inst));
    if (i && llvm::isa<llvm::FPMathOperator>(i))
        i->setFastMathFlags(to_llvm(flags));
}
