// hls::task for C simulation, written for the `hls` project (not Vitis's header; synthesis and a
// $XILINX_HLS csim see Vitis's own hls_task.h).
//
// `hls_thread_local hls::task t(func, streams...)` adds a process to the dataflow region being
// declared (hls_csim::region, hls_csim.h) whose body calls func(streams...) again and again. The
// region runs it with the baton like every other process, so a run is deterministic; when no process
// can move and every process left is a task waiting on an empty input, the region ends normally (the
// tasks idle, as in hardware); any other stop is a deadlock. hls_thread_local is empty here: each
// call of the kernel declares its tasks and channels afresh and ends them, where Vitis csim keeps
// thread-local objects from one call to the next.
#ifndef HLS_PROJECT_TASK_H
#define HLS_PROJECT_TASK_H

#include <stdexcept>

#include "hls_stream.h"

#ifndef hls_thread_local
#define hls_thread_local
#endif

namespace hls {

class task {
  public:
    template <typename F, typename... A> explicit task(F func, A &...args) {
        hls_csim::region *region = hls_csim::region::building();
        if (region == nullptr) throw std::logic_error("hls::task declared outside a dataflow region");
        region->spawn_task([func, &args...]() { func(args...); });
    }
    task(const task &) = delete;
    task &operator=(const task &) = delete;
};

}  // namespace hls

#endif
