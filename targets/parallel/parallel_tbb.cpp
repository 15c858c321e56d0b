// The oneTBB threading layer: the library's one C++ file, behind a C
// function that never lets an exception out.
//
// A task_arena per thread count gives calls their own concurrency without
// touching the process's default arena; arenas are made once and kept. TBB
// caps its workers at the hardware concurrency unless a global_control
// allows more, so asking for 7 threads on 2 cores raises that cap (to the
// largest count asked for so far) instead of silently running on 2.
#include <atomic>
#include <cstdio>
#include <exception>
#include <mutex>
#include <new>

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <ufjit/error.h>

#include "targets/parallel/parallel_internal.h"

namespace {

std::atomic<tbb::task_arena *> arenas[UF__PARALLEL_MAX_THREADS + 1];

std::mutex limit_lock;
tbb::global_control *limit; // never freed: reachable until exit
int limit_threads;

void allow_threads(int nthreads)
{
    std::lock_guard<std::mutex> hold(limit_lock);
    if (nthreads <= limit_threads)
        return;
    // The most restrictive of several controls applies: make the new one,
    // then drop the old.
    auto *next = new tbb::global_control(
        tbb::global_control::max_allowed_parallelism,
        static_cast<std::size_t>(nthreads));
    delete limit;
    limit = next;
    limit_threads = nthreads;
}

tbb::task_arena *arena_for(int nthreads)
{
    std::atomic<tbb::task_arena *> &slot = arenas[nthreads];
    tbb::task_arena *a = slot.load(std::memory_order_acquire);
    if (a != nullptr)
        return a;
    allow_threads(nthreads);
    auto *made = new tbb::task_arena(nthreads);
    if (slot.compare_exchange_strong(a, made, std::memory_order_acq_rel))
        return made;
    delete made; // another thread made it first
    return a;
}

} // namespace

extern "C" int uf__parallel_tbb_run(int64_t nchunks, int nthreads,
                                    uf__parallel_chunk_fn fn, void *job,
                                    char *why, size_t size)
{
    if (nthreads > nchunks)
        nthreads = static_cast<int>(nchunks);
    try {
        tbb::task_arena *a = arena_for(nthreads);
        a->execute([&] {
            // One task per chunk: the dispatcher already made the chunks
            // grain-sized, a few per thread.
            tbb::parallel_for(
                tbb::blocked_range<int64_t>(0, nchunks, 1),
                [&](const tbb::blocked_range<int64_t> &r) {
                    for (int64_t i = r.begin(); i != r.end(); ++i)
                        fn(job, i);
                },
                tbb::simple_partitioner());
        });
        return 0;
    } catch (const std::bad_alloc &) {
        std::snprintf(why, size, "out of memory in the tbb layer");
        return UF_ERR_NOMEM;
    } catch (const std::exception &e) {
        std::snprintf(why, size, "the tbb layer failed: %s", e.what());
        return UF_ERR_INTERNAL;
    } catch (...) {
        std::snprintf(why, size, "the tbb layer failed (unknown exception)");
        return UF_ERR_INTERNAL;
    }
}
