/* The njit kind: plain functions called once per uf_call (njit_call.c). */
#ifndef UF_NJIT_NJIT_H
#define UF_NJIT_NJIT_H

#include "compiler/module.h"

extern const uf__kind_ops uf__njit_kind;

#endif
