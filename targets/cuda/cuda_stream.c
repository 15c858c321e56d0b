/* uf_stream (ufjit/cuda.h): a driver stream of one runtime. */
#include "common/alloc.h"
#include "common/error_internal.h"
#include "targets/cuda/cuda_memory.h"
#include "targets/cuda/cuda_scratch.h"

uf_stream *uf_stream_create(const char *target, uf_error *err)
{
    const uf__cuda_rt *rt = uf__cuda_rt_get(target, err);
    if (rt == NULL)
        return NULL;
    uf_stream *s = uf__malloc(1, sizeof *s, err);
    if (s == NULL)
        return NULL;
    s->rt = rt;
    if (!(s->scratch = uf__cuda_scratch_new(rt, err))) {
        uf__free(s);
        return NULL;
    }
    if (uf__cuda_check(rt, rt->drv->stream_create(&s->s, 0),
                       "cuStreamCreate", err) != 0) {
        uf__cuda_scratch_free(s->scratch);
        uf__free(s);
        return NULL;
    }
    return s;
}

int uf_stream_synchronize(uf_stream *s, uf_error *err)
{
    if (s == NULL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_stream_synchronize: NULL stream");
    if (uf__cuda_rt_enter(s->rt, err) != 0)
        return err->code;
    return uf__cuda_check(s->rt, s->rt->drv->stream_synchronize(s->s),
                          "cuStreamSynchronize", err);
}

void uf_stream_destroy(uf_stream *s)
{
    if (s == NULL)
        return;
    uf_error err;
    /* cuStreamDestroy returns at once and lets queued work finish; the
     * arrays whose copies are queued may be freed right after, so wait */
    if (uf__cuda_rt_enter(s->rt, &err) == 0) {
        (void)s->rt->drv->stream_synchronize(s->s);
        (void)s->rt->drv->stream_destroy(s->s);
    }
    uf__cuda_scratch_free(s->scratch);
    uf__free(s);
}
