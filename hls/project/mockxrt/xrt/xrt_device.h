// Mock of XRT's xrt/xrt_device.h, written for the hls project (not Xilinx code): enough of the native
// API for the host programs hls generates to run against csim builds of their kernels, with g++ alone.
//
// The "xclbin" a mock device loads is a text file, one directive per line:
//   kernel <name> <csim library>      the kernel <name> runs the hls_bridge of that shared library
//   connect <cu>.<port> <cu>.<port>   a stream between two kernels (hls.System)
//   free <name>                       a free-running kernel: it runs whenever its input streams fill
//   meta <name> <json>                (read by the Python mock only)
// A relative library path is taken from the xclbin's folder. Errors throw std::runtime_error.
#ifndef HLS_MOCKXRT_DEVICE_H
#define HLS_MOCKXRT_DEVICE_H

#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace hls_mockxrt {

struct link {
    std::string from_kernel, from_port, to_kernel, to_port;
};

// What a loaded mock xclbin says: kernel -> library, stream links, free-running kernels.
struct image {
    std::string path;
    std::map<std::string, std::string> libraries;
    std::vector<link> links;
    std::vector<std::string> free_running;
};

inline std::pair<std::string, std::string> split_port(const std::string &text, const std::string &where) {
    size_t dot = text.find('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == text.size())
        throw std::runtime_error(where + ": expected <kernel>.<port>, got '" + text + "'");
    return {text.substr(0, dot), text.substr(dot + 1)};
}

inline std::shared_ptr<image> read_image(const std::string &path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("mock XRT: cannot open xclbin '" + path + "' (make host-sim writes it)");
    auto result = std::make_shared<image>();
    result->path = path;
    std::string folder = path.find('/') == std::string::npos ? "." : path.substr(0, path.rfind('/'));
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        number++;
        std::istringstream words(line);
        std::string verb, a, b;
        words >> verb >> a >> b;
        std::string where = path + ":" + std::to_string(number);
        if (verb.empty() || verb[0] == '#') continue;
        if (verb == "kernel" && !a.empty() && !b.empty()) {
            result->libraries[a] = b[0] == '/' ? b : folder + "/" + b;
        } else if (verb == "connect" && !a.empty() && !b.empty()) {
            auto from = split_port(a, where), to = split_port(b, where);
            result->links.push_back({from.first, from.second, to.first, to.second});
        } else if (verb == "meta" && !a.empty() && !b.empty()) {
            continue;  // the layout description the Python mock reads (host/sim/<kernel>_kernel.json)
        } else if (verb == "free" && !a.empty()) {
            result->free_running.push_back(a);
        } else {
            throw std::runtime_error(where + ": not a mock xclbin line: '" + line + "'");
        }
    }
    return result;
}

}  // namespace hls_mockxrt

namespace xrt {

// The xclbin's identity; here the loaded image itself.
class uuid {
  public:
    uuid() = default;
    explicit uuid(std::shared_ptr<hls_mockxrt::image> image) : image_(std::move(image)) {}
    const std::shared_ptr<hls_mockxrt::image> &image() const { return image_; }
    std::string to_string() const { return image_ ? image_->path : std::string(); }

  private:
    std::shared_ptr<hls_mockxrt::image> image_;
};

class device {
  public:
    device() = default;
    explicit device(unsigned int index) : index_(index) {}
    uuid load_xclbin(const std::string &path) {
        image_ = hls_mockxrt::read_image(path);
        return uuid(image_);
    }
    unsigned int index() const { return index_; }

  private:
    unsigned int index_ = 0;
    std::shared_ptr<hls_mockxrt::image> image_;
};

}  // namespace xrt

#endif
