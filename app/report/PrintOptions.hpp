// Options shared by the herd and JSON printers.
#pragma once

namespace ptxmc::report {

struct PrintOptions {
    /// false (--no-time): leave timings out so that outputs of two runs compare byte for byte
    bool showTime = true;
};

} // namespace ptxmc::report
