// Where the ways of a branch meet again: immediate post-dominators of small control-flow graphs.
#include "kernel/PostDominators.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc::kernel;

TEST_CASE("post-dominators: the two ways of an if-else meet after it", "[post-dominators]") {
    // 0: branch to 2 or 1; 1: then, jumps to 3; 2: else; 3: join; 4 is the exit
    const std::vector<std::vector<std::size_t>> succ{{2, 1}, {3}, {3}, {4}};
    const std::vector<std::size_t> ipdom = immediatePostDominators(succ);
    CHECK(ipdom == std::vector<std::size_t>{3, 3, 3, 4});
}

TEST_CASE("post-dominators: a branch one way of which exits meets at the exit",
          "[post-dominators]") {
    // 0: branch to 2 or 1; 1: exit; 2: more, then the exit (3)
    const std::vector<std::vector<std::size_t>> succ{{2, 1}, {3}, {3}};
    CHECK(immediatePostDominators(succ)[0] == 3);
}

TEST_CASE("post-dominators: a loop's exit test meets after the loop", "[post-dominators]") {
    // 0: head, branch out to 3 or into the body 1; 1: body; 2: back to 0; 3: after; 4: exit
    const std::vector<std::vector<std::size_t>> succ{{3, 1}, {2}, {0}, {4}};
    const std::vector<std::size_t> ipdom = immediatePostDominators(succ);
    CHECK(ipdom[0] == 3);
    CHECK(ipdom[1] == 2);
    CHECK(ipdom[2] == 0);
}

TEST_CASE("post-dominators: nodes of an endless loop have none", "[post-dominators]") {
    // 0: branch to 1 (an endless loop of 1 and 2) or to 3, then the exit (4)
    const std::vector<std::vector<std::size_t>> succ{{1, 3}, {2}, {1}, {4}};
    const std::vector<std::size_t> ipdom = immediatePostDominators(succ);
    CHECK(ipdom[1] == kNoPostDominator);
    CHECK(ipdom[2] == kNoPostDominator);
    CHECK(ipdom[0] == 3); // only the way out reaches the exit
}
