// hls::split and hls::merge for C simulation, written for the `hls` project (not Vitis's
// hls_np_channel.h; synthesis and a $XILINX_HLS csim see Vitis's own).
//
// split::round_robin<T, N> has a FIFO `in` and FIFOs `out[N]`; merge::round_robin<T, N> has `in[N]`
// and `out`; the load_balance forms have the same members. In csim the object's distributing (or
// collecting) logic is one more task of the dataflow region (`spawn`, hls_task.h's machinery), so it
// runs with the baton like every process: round robin serves 0, 1, ..., N-1, 0, ... and waits on the
// one whose turn it is; load balance serves the first, from the one after the last served, that can
// take (or give) an item, and waits until any can. This is the algorithm of Python mode
// (hls/golden/channels.py), so both models see the same order; RTL's load balancing follows timing.
#ifndef HLS_PROJECT_NP_CHANNEL_H
#define HLS_PROJECT_NP_CHANNEL_H

#include "hls_stream.h"
#include "hls_task.h"

namespace hls_csim {

// Shared by the four channel kinds: the index of the next FIFO to serve, and waiting on any FIFO.
template <typename T, int N> struct channel_turn {
    int next = 0;
    static bool any_item(const void *fifos) {
        const hls::stream<T> *f = static_cast<const hls::stream<T> *>(fifos);
        for (int k = 0; k < N; k++)
            if (!f[k].empty()) return true;
        return false;
    }
    static bool any_room(const void *fifos) {
        const hls::stream<T> *f = static_cast<const hls::stream<T> *>(fifos);
        for (int k = 0; k < N; k++)
            if (!f[k].full()) return true;
        return false;
    }
    // The first FIFO from `next` that can serve (`reading`: holds an item; else: has room), waiting while none can.
    int first(hls::stream<T> *fifos, bool reading) {
        for (;;) {
            for (int j = 0; j < N; j++) {
                int k = (next + j) % N;
                if (reading ? !fifos[k].empty() : !fifos[k].full()) return k;
            }
            wait_for(fifos, reading ? &any_item : &any_room, fifos[next].name(), reading, 0);
        }
    }
    void served(int k) { next = (k + 1) % N; }
};

// What the four kinds share: spawning their one step (move one item) as a task of the region.
template <typename T, int N, typename Kind> class channel_task {
  public:
    void spawn(region &r, const char *name) {
        r.name_task(name);
        r.spawn_task([this]() { static_cast<Kind *>(this)->step(); });
    }

  protected:
    channel_turn<T, N> turn_;
};

}  // namespace hls_csim

namespace hls {
namespace split {

template <typename T, int N> class round_robin : public hls_csim::channel_task<T, N, round_robin<T, N>> {
  public:
    stream<T> in;
    stream<T> out[N];
    void step() {
        out[this->turn_.next].write(in.read());
        this->turn_.served(this->turn_.next);
    }
};

template <typename T, int N> class load_balance : public hls_csim::channel_task<T, N, load_balance<T, N>> {
  public:
    stream<T> in;
    stream<T> out[N];
    void step() {
        T value = in.read();
        int k = this->turn_.first(out, false);
        out[k].write(value);
        this->turn_.served(k);
    }
};

}  // namespace split

namespace merge {

template <typename T, int N> class round_robin : public hls_csim::channel_task<T, N, round_robin<T, N>> {
  public:
    stream<T> in[N];
    stream<T> out;
    void step() {
        out.write(in[this->turn_.next].read());
        this->turn_.served(this->turn_.next);
    }
};

template <typename T, int N> class load_balance : public hls_csim::channel_task<T, N, load_balance<T, N>> {
  public:
    stream<T> in[N];
    stream<T> out;
    void step() {
        int k = this->turn_.first(in, true);
        out.write(in[k].read());
        this->turn_.served(k);
    }
};

}  // namespace merge
}  // namespace hls

#endif
