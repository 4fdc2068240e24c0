// hls::stream_of_blocks for C simulation, written for the `hls` project (not Vitis's header; synthesis
// and a $XILINX_HLS csim see Vitis's own hls_streamofblocks.h).
//
// UG1399 "HLS Stream of Blocks Library": `hls::stream_of_blocks<T[N], depth> buf;` is a FIFO of whole
// arrays between one producer and one consumer process of a dataflow region. A process takes a block
// with `hls::write_lock<T[N]> b(buf);` (or read_lock) and uses `b[i]` like the array; the lock's
// destructor, at the end of its scope, releases the block to the other side. `depth` (default 2)
// counts every block, the one the producer holds and the one the consumer holds included, so a write
// lock waits while the released blocks and the consumer's make `depth`, and a read lock while no block
// is released. Both waits go through hls_csim::wait_for, so the region's baton scheduler runs them
// deterministically and reports a deadlock as for hls::stream. A block taken by a write lock starts
// zeroed (Vitis leaves whatever the buffer held; Python mode zeroes it too, so both models agree).
#ifndef HLS_PROJECT_STREAMOFBLOCKS_H
#define HLS_PROJECT_STREAMOFBLOCKS_H

#include <cstddef>
#include <deque>
#include <memory>
#include <string>
#include <type_traits>

#include "hls_stream.h"

namespace hls {

// What a lock needs of a stream of blocks of any depth (the locks are templated on the block only).
template <typename T> class blocks_channel {
  public:
    blocks_channel(int depth, const char *name) : depth_(depth), name_(name) {}
    blocks_channel(const blocks_channel &) = delete;
    blocks_channel &operator=(const blocks_channel &) = delete;

    T &acquire_write() {
        if (!has_room(this)) hls_csim::wait_for(this, &blocks_channel::has_room, name_, false, depth_);
        writing_.reset(new holder());
        return writing_->data;
    }
    void release_write() { released_.push_back(std::move(writing_)); }
    T &acquire_read() {
        if (released_.empty()) hls_csim::wait_for(this, &blocks_channel::has_block, name_, true, depth_);
        reading_ = std::move(released_.front());
        released_.pop_front();
        return reading_->data;
    }
    void release_read() { reading_.reset(); }
    // csim only: the name messages use.
    void set_name(const char *name) { name_ = name; }

  private:
    struct holder {
        holder() : data() {}  // value-initialised: a zeroed block
        T data;
    };
    static bool has_room(const void *self) {
        const blocks_channel *c = static_cast<const blocks_channel *>(self);
        return static_cast<int>(c->released_.size()) + (c->reading_ ? 1 : 0) < c->depth_;
    }
    static bool has_block(const void *self) { return !static_cast<const blocks_channel *>(self)->released_.empty(); }

    int depth_;
    std::string name_;
    std::deque<std::unique_ptr<holder> > released_;  // written, not yet taken by the consumer
    std::unique_ptr<holder> writing_;                // the producer's block
    std::unique_ptr<holder> reading_;                // the consumer's block
};

template <typename T, int DEPTH = 2> class stream_of_blocks : public blocks_channel<T> {
  public:
    stream_of_blocks() : blocks_channel<T>(DEPTH, "stream_of_blocks") {}
    explicit stream_of_blocks(const char *name) : blocks_channel<T>(DEPTH, name) {}
};

// The scope of one block: acquired when constructed, released when destroyed.
template <typename T, bool WRITE> class block_lock {
  public:
    typedef typename std::remove_extent<T>::type row_type;

    explicit block_lock(blocks_channel<T> &channel)
        : channel_(channel), block_(WRITE ? channel.acquire_write() : channel.acquire_read()) {}
    ~block_lock() {
        if (WRITE)
            channel_.release_write();
        else
            channel_.release_read();
    }
    block_lock(const block_lock &) = delete;
    block_lock &operator=(const block_lock &) = delete;

    // any index type, so that b[i] never competes with the built-in b[i] through the conversion below
    template <typename I> row_type &operator[](const I &i) { return block_[i]; }
    operator T &() { return block_; }  // passes the block on as the array it is

  private:
    blocks_channel<T> &channel_;
    T &block_;
};

template <typename T> class write_lock : public block_lock<T, true> {
  public:
    explicit write_lock(blocks_channel<T> &channel) : block_lock<T, true>(channel) {}
};

template <typename T> class read_lock : public block_lock<T, false> {
  public:
    explicit read_lock(blocks_channel<T> &channel) : block_lock<T, false>(channel) {}
};

}  // namespace hls

#endif
