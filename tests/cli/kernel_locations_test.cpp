// readableName: a location named after a mangled variable, as the code spells the variable.
#include "cli/KernelLocations.hpp"

#include <catch2/catch.hpp>

using ptxmc::cli::readableName;

TEST_CASE("a location named after a mangled variable reads as the variable and its offset",
          "[cli][kernel]") {
    CHECK(readableName("_ZN7cutlass4smemE_33792") == "cutlass::smem+33792");
    CHECK(readableName("_ZN4cute6detail3bufE_0") == "cute::detail::buf+0");
    CHECK(readableName("full_bar_0").empty());           // nvcc's local static, already short
    CHECK(readableName("_ZN7cutlass4smemE_w0").empty()); // a writer's part: no offset
    CHECK(readableName("_ZN7cutlass99smemE_8").empty()); // a length past the name
}
