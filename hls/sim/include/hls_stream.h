// hls::stream for C simulation, written for the `hls` project (not Vitis's header; with $XILINX_HLS
// set, Vitis's own hls_stream.h is found first and this file is not used).
//
// A FIFO of T. Outside a dataflow region it is unbounded, as in Vitis csim. Inside a region run by
// hls_csim.h every process is a thread holding a baton: a read of an empty FIFO, or a write to a
// FIFO holding its declared depth, hands the baton on; when no process can move, the region reports
// a deadlock naming the FIFO instead of hanging. A read of an empty FIFO outside a region records a
// csim fault naming the FIFO and ends the kernel call by throwing hls_csim::stream_fault (Vitis warns and
// returns an undefined value, so a loop waiting for TLAST would never end).
#ifndef HLS_PROJECT_STREAM_H
#define HLS_PROJECT_STREAM_H
#define HLS_PROJECT_OWN_STREAM 1

#include <cstddef>
#include <deque>
#include <string>

namespace hls_csim {
// Defined in hls_csim.h (included at the end): block the calling process until `ready(fifo)` holds;
// outside a dataflow region, record a fault and throw stream_fault.
inline void wait_for(const void *fifo, bool (*ready)(const void *), const std::string &name, bool reading,
                     int depth);
}

namespace hls {

template <typename T> class stream {
  public:
    stream() : name_("stream"), depth_(0) {}
    explicit stream(const char *name) : name_(name), depth_(0) {}
    stream(const stream &) = delete;
    stream &operator=(const stream &) = delete;

    // csim only: the depth the region's `#pragma HLS stream` declares (0: unbounded).
    void set_depth(int depth) { depth_ = depth; }
    // csim only: the name messages use, for a FIFO that is a member of a split or merge object.
    void set_name(const char *name) { name_ = name; }
    const std::string &name() const { return name_; }
    std::size_t size() const { return items_.size(); }

    bool empty() const { return items_.empty(); }
    bool full() const { return depth_ > 0 && items_.size() >= static_cast<std::size_t>(depth_); }

    T read() {
        T value = T();
        read(value);
        return value;
    }
    void read(T &value) {
        if (items_.empty()) hls_csim::wait_for(this, &stream::has_item, name_, true, depth_);
        value = items_.front();
        items_.pop_front();
    }
    void write(const T &value) {
        if (full()) hls_csim::wait_for(this, &stream::has_room, name_, false, depth_);
        items_.push_back(value);
    }
    bool read_nb(T &value) {
        if (items_.empty()) return false;
        value = items_.front();
        items_.pop_front();
        return true;
    }
    bool write_nb(const T &value) {
        if (full()) return false;
        items_.push_back(value);
        return true;
    }
    void operator>>(T &value) { read(value); }
    void operator<<(const T &value) { write(value); }

  private:
    static bool has_item(const void *self) { return !static_cast<const stream *>(self)->items_.empty(); }
    static bool has_room(const void *self) { return !static_cast<const stream *>(self)->full(); }

    std::string name_;
    int depth_;
    std::deque<T> items_;
};

}  // namespace hls

#include "hls_csim.h"

#endif
