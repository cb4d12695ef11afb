// readableName: a location named after a mangled variable, as the code spells the variable.
#include "cli/KernelLocations.hpp"

#include <catch2/catch.hpp>

using ptxmc::cli::readableName;

TEST_CASE("a location named after a mangled variable reads as the variable and its offset",
          "[cli][kernel]") {
    CHECK(readableName("_ZN7cutlass4smemE_33792") == "cutlass::smem+33792");
    CHECK(readableName("_ZN4cute6detail3bufE_0") == "cute::detail::buf+0");
    CHECK(readableName("full_bar_0").empty());              // nvcc's local static, already short
    CHECK(readableName("_ZN7cutlass4smemE_w0").empty());    // a writer's part: no offset
    CHECK(readableName("_ZN7cutlass99smemE_8").empty());    // a length past the name
    CHECK(readableName("_ZN7cutlass4smemE_384_2").empty()); // a second location of one start
}

TEST_CASE("an mbarrier's suffix is its 8-byte slot, read as the byte it starts at",
          "[cli][kernel]") {
    CHECK(readableName("_ZN7cutlass4smemE_7", true) == "cutlass::smem+56");
    CHECK(readableName("_ZN7cutlass4smemE_0", true) == "cutlass::smem+0");
    CHECK(readableName("_ZN7cutlass4smemE_7") == "cutlass::smem+7");          // a buffer: bytes
    CHECK(readableName("_ZN7cutlass4smemE_99999999999999999", true).empty()); // no such slot
}
