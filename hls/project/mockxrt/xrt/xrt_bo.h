// Mock of XRT's xrt/xrt_bo.h, written for the hls project (not Xilinx code): a buffer object is host
// memory shared by the host program and the in-process csim kernel; sync() has nothing to copy.
#ifndef HLS_MOCKXRT_BO_H
#define HLS_MOCKXRT_BO_H

#include <cstddef>
#include <cstring>
#include <memory>
#include <vector>

#include "xrt_device.h"

enum xclBOSyncDirection { XCL_BO_SYNC_BO_TO_DEVICE = 0, XCL_BO_SYNC_BO_FROM_DEVICE = 1 };

namespace xrt {

using memory_group = int;

class bo {
  public:
    enum class flags : uint32_t { normal = 0, cacheable = 1, device_only = 2, host_only = 3 };

    bo() = default;
    bo(const device &, size_t size, flags, memory_group group)
        : data_(std::make_shared<std::vector<unsigned char>>(size)), group_(group) {}
    bo(const device &dev, size_t size, memory_group group) : bo(dev, size, flags::normal, group) {}

    template <typename Pointer>
    Pointer map() { return reinterpret_cast<Pointer>(data_->data()); }
    void sync(xclBOSyncDirection, size_t = 0, size_t = 0) { syncs_++; }
    void write(const void *source, size_t size = 0, size_t offset = 0) {
        std::memcpy(data_->data() + offset, source, size ? size : data_->size() - offset);
    }
    void read(void *target, size_t size = 0, size_t offset = 0) const {
        std::memcpy(target, data_->data() + offset, size ? size : data_->size() - offset);
    }
    size_t size() const { return data_ ? data_->size() : 0; }
    memory_group group() const { return group_; }
    void *address() const { return data_ ? data_->data() : nullptr; }

  private:
    std::shared_ptr<std::vector<unsigned char>> data_;
    memory_group group_ = 0;
    int syncs_ = 0;
};

}  // namespace xrt

#endif
