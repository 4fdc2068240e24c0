// C-simulation runtime of the `hls` project (written here): dataflow regions and csim faults.
//
// With this project's hls_stream.h, a region runs its processes as threads, one at a time: the
// running process keeps the baton until it blocks on a FIFO (empty on read, full at its declared
// depth on write) or finishes, then the baton goes to the next process in program order that can
// move. The interleaving is the one Python mode uses, so both see the same order of events; when no
// process can move the region stops and reports the deadlock (fault 3 with a message naming every
// blocked process and FIFO) instead of hanging. Vitis csim instead runs the processes one after the
// other with unbounded FIFOs, which finds neither deadlocks nor too-shallow FIFOs. With Vitis's own
// hls_stream.h (when $XILINX_HLS is set) this file falls back to exactly that sequential run.
#ifndef HLS_PROJECT_CSIM_H
#define HLS_PROJECT_CSIM_H

#include <condition_variable>
#include <functional>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "hls_stream.h"

namespace hls_csim {

struct process;

struct state {
    std::mutex mutex;
    std::condition_variable changed;  // the baton moved
    process *running = nullptr;       // nullptr: the driving thread holds the baton
    std::vector<process *> all;
    std::vector<std::unique_ptr<process>> unwound;  // processes of nested regions a deadlock cut short
    int fault = 0;                    // 3: deadlock, 4: read of an empty FIFO outside a region
    std::string message;
};

inline state &global() {
    static state instance;
    return instance;
}

struct process {
    std::string name;
    std::function<void()> body;
    std::thread thread;
    bool done = false;
    bool aborting = false;
    // what the process waits for: ready(fifo) or, for a nested region, all `children` done
    const void *fifo = nullptr;
    bool (*ready)(const void *) = nullptr;
    std::string fifo_name;
    bool reading = false;
    int depth = 0;
    std::vector<process *> children;
    bool started = false;
    bool task = false;  // an hls::task: it runs for ever; waiting on an empty input is its idle state
    std::vector<process *> after;  // ping-pong buffers: these must be done before this one starts

    bool can_run() const {
        if (done) return false;
        if (!started)
            for (const process *writer : after)
                if (!writer->done) return false;
        if (ready != nullptr) return ready(fifo);
        for (const process *child : children)
            if (!child->done) return false;
        return true;
    }
};

struct abort_region {};

// Thrown by a blocking read of an empty FIFO (or write to a full one) outside a dataflow region: no
// other process can ever fill (or drain) it, so the kernel call ends there instead of looping on
// default values (a frame without TLAST would otherwise never end). The fault (4) is recorded first;
// the bridge catches this and reports it.
struct stream_fault : std::runtime_error {
    explicit stream_fault(const std::string &message) : std::runtime_error(message) {}
};

inline process *&current() {
    static thread_local process *self = nullptr;
    return self;
}

inline void set_fault(int code, const std::string &message) {
    state &g = global();
    if (g.fault == 0) {
        g.fault = code;
        g.message = message;
    }
}

// Give the baton back and wait until the scheduler hands it to `self` again (the lock is held).
inline void yield_baton(std::unique_lock<std::mutex> &lock, process *self) {
    state &g = global();
    g.running = nullptr;
    g.changed.notify_all();
    g.changed.wait(lock, [&] { return g.running == self; });
    self->ready = nullptr;
    self->children.clear();
    if (self->aborting) throw abort_region();
}

inline void wait_for(const void *fifo, bool (*ready)(const void *), const std::string &name, bool reading,
                     int depth) {
    process *self = current();
    if (self == nullptr) {
        std::string message = (reading ? "read from the empty stream '" : "write to the full stream '") + name +
                              "' outside a dataflow region: no process can " + (reading ? "write" : "read") + " it";
        set_fault(4, message);
        throw stream_fault(message);
    }
    std::unique_lock<std::mutex> lock(global().mutex);
    self->fifo = fifo;
    self->ready = ready;
    self->fifo_name = name;
    self->reading = reading;
    self->depth = depth;
    yield_baton(lock, self);
}

inline std::string deadlock_message(const std::vector<process *> &live) {
    std::string text = "deadlock: no process of the dataflow region can move";
    for (const process *p : live) {
        if (p->ready == nullptr) continue;
        text += "\n  process '" + p->name + "' " + (p->reading ? "reads the empty" : "writes the full") +
                " FIFO '" + p->fifo_name + "'";
        if (p->depth > 0) text += " (depth " + std::to_string(p->depth) + ")";
    }
    return text;
}

// The driving thread: hand the baton round until every process is done or none can move.
inline void drive() {
    state &g = global();
    std::unique_lock<std::mutex> lock(g.mutex);
    std::size_t turn = 0;
    for (;;) {
        std::vector<process *> live;
        for (process *p : g.all)
            if (!p->done) live.push_back(p);
        if (live.empty()) return;
        process *chosen = nullptr;
        for (std::size_t k = 0; k < g.all.size() && chosen == nullptr; k++) {
            process *p = g.all[(turn + k) % g.all.size()];
            if (p->can_run()) {
                chosen = p;
                turn = (turn + k) % g.all.size();
            }
        }
        bool idle = true;  // every process left is a task waiting for input: the normal end of the region
        for (const process *p : live) idle = idle && p->task && p->ready != nullptr && p->reading;
        if (chosen == nullptr) {
            if (!idle) set_fault(3, deadlock_message(live));
            for (process *p : live) {  // unwind each blocked process in turn
                p->aborting = true;
                g.running = p;
                g.changed.notify_all();
                g.changed.wait(lock, [&] { return g.running == nullptr; });
            }
            return;
        }
        chosen->started = true;
        g.running = chosen;
        g.changed.notify_all();
        g.changed.wait(lock, [&] { return g.running == nullptr; });
    }
}

class region {
  public:
    explicit region(const char *name) : name_(name), outer_(building()) { building() = this; }
    ~region() { building() = outer_; }
    region(const region &) = delete;
    region &operator=(const region &) = delete;

    // The region being declared on this thread: where an hls::task object (hls_task.h) adds itself.
    static region *&building() {
        static thread_local region *current = nullptr;
        return current;
    }

    // csim only: the process name of the next hls::task declared (the object cannot see its name).
    void name_task(const char *name) { task_name_ = name; }

    // An hls::task's body, repeated for ever: the region ends it once it idles on an empty input.
    void spawn_task(std::function<void()> iteration) {
        spawn(task_name_.c_str(), [iteration]() {
            for (;;) iteration();
        }, true);
    }

    void spawn(const char *name, std::function<void()> body, bool task = false) {
#ifdef HLS_PROJECT_OWN_STREAM
        std::unique_ptr<process> p(new process());
        p->name = name;
        p->body = std::move(body);
        p->task = task;
        processes_.push_back(std::move(p));
#else
        (void)name;
        (void)task;
        body();  // Vitis's hls::stream: the processes run one after the other, as in Vitis csim
#endif
    }

    // csim only: `name` starts once every process in `writers` is done (the ping-pong hand-off).
    void after(const char *name, std::initializer_list<const char *> writers) {
#ifdef HLS_PROJECT_OWN_STREAM
        process *reader = find(name);
        for (const char *writer : writers) {
            process *p = find(writer);
            if (reader != nullptr && p != nullptr) reader->after.push_back(p);
        }
#else
        (void)name;
        (void)writers;  // sequential: the writers already ran
#endif
    }

    void run() {
#ifdef HLS_PROJECT_OWN_STREAM
        state &g = global();
        process *parent = current();
        {
            std::unique_lock<std::mutex> lock(g.mutex);
            for (auto &p : processes_) {
                g.all.push_back(p.get());
                process *raw = p.get();
                raw->thread = std::thread([raw] { main(raw); });
            }
            if (parent != nullptr) {  // a nested region: the calling process waits for its processes
                for (auto &p : processes_) parent->children.push_back(p.get());
                try {
                    yield_baton(lock, parent);
                } catch (const abort_region &) {
                    // the outermost region joins these threads once every process has unwound
                    for (auto &p : processes_) g.unwound.push_back(std::move(p));
                    processes_.clear();
                    throw;
                }
            }
        }
        if (parent == nullptr) {
            drive();
            std::vector<std::unique_ptr<process>> unwound;
            {
                std::lock_guard<std::mutex> lock(g.mutex);
                g.all.clear();
                unwound.swap(g.unwound);
            }
            for (auto &p : unwound) p->thread.join();
        }
        for (auto &p : processes_) p->thread.join();
        processes_.clear();
#endif
    }

  private:
    process *find(const char *name) {
        for (auto &p : processes_)
            if (p->name == name) return p.get();
        return nullptr;
    }

    static void main(process *self) {
        state &g = global();
        current() = self;
        {
            std::unique_lock<std::mutex> lock(g.mutex);
            g.changed.wait(lock, [&] { return g.running == self; });
        }
        bool aborted = self->aborting;
        if (!aborted) {
            try {
                self->body();
            } catch (const abort_region &) {
                aborted = true;
            }
        }
        std::lock_guard<std::mutex> lock(g.mutex);
        self->done = true;
        g.running = nullptr;
        g.changed.notify_all();
    }

    std::string name_;
    region *outer_;
    std::string task_name_ = "task";
    std::vector<std::unique_ptr<process>> processes_;
};

// The depth a local stream's pragma declares, for this file's FIFOs; nothing for Vitis's.
template <typename S> inline void set_depth(S &, int) {}
#ifdef HLS_PROJECT_OWN_STREAM
template <typename T> inline void set_depth(hls::stream<T> &s, int depth) { s.set_depth(depth); }
#endif
template <typename S> inline void set_name(S &, const char *) {}
#ifdef HLS_PROJECT_OWN_STREAM
template <typename T> inline void set_name(hls::stream<T> &s, const char *name) { s.set_name(name); }
#endif

inline int take_fault(std::string &message) {
    state &g = global();
    int fault = g.fault;
    message = g.message;
    g.fault = 0;
    g.message.clear();
    return fault;
}

}  // namespace hls_csim

#define HLS_PROCESS_BEGIN(region, name) region.spawn(#name, [&]() {
#define HLS_PROCESS_END });
#define HLS_REGION_RUN(region) region.run();

#endif
