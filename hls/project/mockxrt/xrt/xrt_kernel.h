// Mock of XRT's xrt/xrt_kernel.h, written for the hls project (not Xilinx code).
//
// xrt::kernel(device, uuid, "name") finds "name" in the loaded mock xclbin, dlopens the csim library the
// xclbin names for it, and takes the entry that host/sim/<kernel>_entry.cpp registered for it (generated
// with the host program: it converts device-layout buffers and scalars to the bridge's storage and calls
// hls_bridge). Calling the kernel queues a run; the first wait() runs every queued kernel in process,
// producers before consumers along the xclbin's stream links, free-running kernels whenever their input
// streams hold items. A kernel fault (a read of an empty stream, a csim check) throws std::runtime_error.
#ifndef HLS_MOCKXRT_KERNEL_H
#define HLS_MOCKXRT_KERNEL_H

#include <dlfcn.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "xrt_bo.h"
#include "xrt_device.h"

enum ert_cmd_state { ERT_CMD_STATE_NEW = 1, ERT_CMD_STATE_QUEUED = 2, ERT_CMD_STATE_COMPLETED = 4,
                     ERT_CMD_STATE_ERROR = 5 };

namespace hls_mockxrt {

// A stream port's items in device layout: what is fed before a call, what is left or written after it.
struct stream_items {
    std::vector<unsigned char> bytes;
};

// args[i]: a buffer's memory, a scalar's bytes, or a stream_items*; rets[j]: room for return value j.
using entry_fn = int (*)(void *library, void **args, void **rets, std::string &message);

struct kernel_info {
    entry_fn entry = nullptr;
    std::string kinds;                  // per argument: 'b' buffer, 's' scalar, 'i'/'o' stream in/out
    std::vector<std::string> names;     // argument names (the stream links name them)
    std::vector<uint32_t> ret_offsets;  // s_axilite offset of each returned value (read_register)
    std::vector<size_t> ret_sizes;      // its size in bytes
};

inline std::map<std::string, kernel_info> &registry() {
    static std::map<std::string, kernel_info> kernels;
    return kernels;
}

struct registrar {
    registrar(const char *name, kernel_info info) { registry()[name] = std::move(info); }
};

// One launch: the argument bytes (scalars) and memory (buffers) it was given.
struct launch {
    std::string kernel;
    std::vector<void *> args;
    std::vector<std::vector<unsigned char>> scalars;
    std::vector<xrt::bo> buffers;
    std::shared_ptr<std::map<uint32_t, uint32_t>> registers;
    std::shared_ptr<int> state;
};

// The kernels of one loaded xclbin as they run in this process.
struct machine {
    std::shared_ptr<image> loaded;
    std::map<std::string, void *> libraries;
    std::map<std::string, stream_items> queues;  // "<kernel>.<port>" -> items waiting to be read
    std::vector<launch> pending;

    static machine &of(const std::shared_ptr<image> &loaded) {
        static std::map<const image *, std::unique_ptr<machine>> machines;
        auto &slot = machines[loaded.get()];
        if (!slot) {
            slot.reset(new machine());
            slot->loaded = loaded;
        }
        return *slot;
    }

    const kernel_info &info(const std::string &name) {
        auto found = registry().find(name);
        if (found == registry().end() || loaded->libraries.count(name) == 0)
            throw std::runtime_error("mock XRT: no kernel '" + name + "' in " + loaded->path +
                                     (found == registry().end() ? " (no entry compiled into the host)" : ""));
        return found->second;
    }

    void *library(const std::string &name) {
        void *&handle = libraries[name];
        if (handle == nullptr) {
            const std::string &path = loaded->libraries.at(name);
            handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
            if (handle == nullptr) throw std::runtime_error("mock XRT: cannot load " + path + ": " + dlerror());
        }
        return handle;
    }

    // Kernels in stream order: every producer before its consumers (an acyclic system, as csim runs it).
    std::vector<std::string> order() const {
        std::vector<std::string> names, done;
        for (const auto &entry : loaded->libraries) names.push_back(entry.first);
        std::set<std::string> placed;
        while (placed.size() < names.size()) {
            bool progress = false;
            for (const auto &name : names) {
                if (placed.count(name)) continue;
                bool ready = true;
                for (const auto &l : loaded->links)
                    if (l.to_kernel == name && l.from_kernel != name && !placed.count(l.from_kernel)) ready = false;
                if (!ready) continue;
                placed.insert(name);
                done.push_back(name);
                progress = true;
            }
            if (!progress) throw std::runtime_error("mock XRT: the stream links of " + loaded->path + " form a cycle");
        }
        return done;
    }

    bool is_free(const std::string &name) const {
        for (const auto &f : loaded->free_running)
            if (f == name) return true;
        return false;
    }

    void call(launch &run) {
        const kernel_info &k = info(run.kernel);
        std::vector<stream_items> streams(k.kinds.size());
        for (size_t i = 0; i < k.kinds.size(); i++) {
            if (k.kinds[i] == 's' && run.scalars.size() > i && !run.scalars[i].empty())
                run.args[i] = run.scalars[i].data();  // this copy's own bytes
            if ((k.kinds[i] == 'b' || k.kinds[i] == 's') && run.args[i] == nullptr)
                throw std::runtime_error("mock XRT: argument " + std::to_string(i) + " of " + run.kernel + " was not set");
            if (k.kinds[i] != 'i' && k.kinds[i] != 'o') continue;
            std::string key = run.kernel + "." + k.names[i];
            if (k.kinds[i] == 'i') streams[i].bytes.swap(queues[key].bytes);
            run.args[i] = &streams[i];
        }
        std::vector<std::vector<unsigned char>> rets(k.ret_sizes.size());
        std::vector<void *> ret_ptrs;
        for (size_t j = 0; j < rets.size(); j++) {
            rets[j].resize(k.ret_sizes[j] < 8 ? 8 : k.ret_sizes[j]);
            ret_ptrs.push_back(rets[j].data());
        }
        std::string message;
        int fault = k.entry(library(run.kernel), run.args.data(), ret_ptrs.data(), message);
        if (fault) {
            if (run.state) *run.state = ERT_CMD_STATE_ERROR;
            throw std::runtime_error("mock XRT: kernel " + run.kernel + " failed in csim (fault " +
                                     std::to_string(fault) + ")" + (message.empty() ? "" : ": " + message));
        }
        for (size_t i = 0; i < k.kinds.size(); i++) {
            std::string key = run.kernel + "." + k.names[i];
            if (k.kinds[i] == 'i') queues[key].bytes.swap(streams[i].bytes);  // what it left unread
            if (k.kinds[i] != 'o') continue;
            std::string target = key;  // an unconnected output keeps its items under its own name
            for (const auto &l : loaded->links)
                if (l.from_kernel == run.kernel && l.from_port == k.names[i]) target = l.to_kernel + "." + l.to_port;
            auto &queue = queues[target].bytes;
            queue.insert(queue.end(), streams[i].bytes.begin(), streams[i].bytes.end());
        }
        for (size_t j = 0; j < rets.size() && run.registers; j++)
            for (size_t w = 0; w * 4 < k.ret_sizes[j]; w++) {
                uint32_t word = 0;
                std::memcpy(&word, rets[j].data() + 4 * w, 4);
                (*run.registers)[k.ret_offsets[j] + 4 * w] = word;
            }
        if (run.state) *run.state = ERT_CMD_STATE_COMPLETED;
    }

    bool has_input(const std::string &name) {
        const kernel_info &k = info(name);
        for (size_t i = 0; i < k.kinds.size(); i++)
            if (k.kinds[i] == 'i' && !queues[name + "." + k.names[i]].bytes.empty()) return true;
        return false;
    }

    // Every queued launch, in stream order; a free-running kernel runs when items wait at its inputs.
    void drain() {
        std::vector<launch> todo;
        todo.swap(pending);
        for (const auto &name : order()) {
            if (is_free(name)) {
                if (has_input(name)) {
                    launch run;
                    run.kernel = name;
                    run.args.resize(info(name).kinds.size());
                    call(run);
                }
                continue;
            }
            for (auto &run : todo)
                if (run.kernel == name) call(run);
        }
    }
};

}  // namespace hls_mockxrt

namespace xrt {

class run;

class kernel {
  public:
    enum class cu_access_mode : uint8_t { exclusive = 0, shared = 1, none = 2 };

    kernel() = default;
    kernel(const device &, const uuid &xclbin, const std::string &name, cu_access_mode = cu_access_mode::shared)
        : name_(name.substr(0, name.find(':'))), xclbin_(xclbin.image()) {
        if (!xclbin_) throw std::runtime_error("mock XRT: xrt::kernel(" + name + ") before load_xclbin");
        hls_mockxrt::machine::of(xclbin_).info(name_);  // fails now for an unknown kernel, as XRT does
        registers_ = std::make_shared<std::map<uint32_t, uint32_t>>();
    }

    // The memory bank of argument argno; the mock keeps every buffer in host memory.
    int group_id(int argno) const {
        if (argno < 0 || static_cast<size_t>(argno) >= info().kinds.size())
            throw std::runtime_error("mock XRT: " + name_ + " has no argument " + std::to_string(argno));
        return argno;
    }

    uint32_t read_register(uint32_t offset) const {
        auto found = registers_->find(offset);
        if (found == registers_->end())
            throw std::runtime_error("mock XRT: register " + std::to_string(offset) + " of " + name_ +
                                     " holds no returned value (run the kernel first)");
        return found->second;
    }

    std::string get_name() const { return name_; }

    template <typename... Args>
    run operator()(Args &&...args);

  private:
    friend class run;
    const hls_mockxrt::kernel_info &info() const { return hls_mockxrt::machine::of(xclbin_).info(name_); }

    std::string name_;
    std::shared_ptr<hls_mockxrt::image> xclbin_;
    std::shared_ptr<std::map<uint32_t, uint32_t>> registers_;
};

class run {
  public:
    run() = default;
    explicit run(const kernel &k) : kernel_(k), state_(std::make_shared<int>(ERT_CMD_STATE_NEW)) {
        launch_.kernel = k.name_;
        launch_.args.resize(k.info().kinds.size());
        launch_.scalars.resize(launch_.args.size());
        launch_.registers = k.registers_;
    }

    void set_arg(int index, const bo &buffer) {
        check(index, 'b');
        launch_.buffers.push_back(buffer);
        launch_.args[index] = buffer.address();
    }

    template <typename T>
    void set_arg(int index, const T &value) {
        static_assert(std::is_trivially_copyable<T>::value, "a scalar kernel argument must be a plain value");
        check(index, 's');
        auto &bytes = launch_.scalars[index];
        bytes.resize(sizeof(T) < 8 ? 8 : sizeof(T));
        std::memcpy(bytes.data(), &value, sizeof(T));
        launch_.args[index] = bytes.data();
    }

    void start() {
        *state_ = ERT_CMD_STATE_QUEUED;
        launch_.state = state_;
        hls_mockxrt::machine::of(kernel_.xclbin_).pending.push_back(launch_);
    }

    ert_cmd_state wait(unsigned int = 0) const {
        if (*state_ == ERT_CMD_STATE_QUEUED) hls_mockxrt::machine::of(kernel_.xclbin_).drain();
        return static_cast<ert_cmd_state>(*state_);
    }

    ert_cmd_state state() const { return static_cast<ert_cmd_state>(*state_); }

  private:
    void check(int index, char kind) const {
        const std::string &kinds = kernel_.info().kinds;
        if (index < 0 || static_cast<size_t>(index) >= kinds.size() || kinds[index] != kind)
            throw std::runtime_error("mock XRT: argument " + std::to_string(index) + " of " + kernel_.name_ +
                                     (kind == 'b' ? " is not a buffer" : " is not a scalar"));
    }

    kernel kernel_;
    hls_mockxrt::launch launch_;
    std::shared_ptr<int> state_;
};

template <typename... Args>
run kernel::operator()(Args &&...args) {
    run r(*this);
    int index = 0;
    int unused[] = {0, (r.set_arg(index++, args), 0)...};
    (void)unused;
    r.start();
    return r;
}

}  // namespace xrt

#endif
