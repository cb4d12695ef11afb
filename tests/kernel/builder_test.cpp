// The builder's units on small modules: buffers and ring stages, parts per writer, identical warps
// as one role with scaled arrivals, and the bytes each tensor copy of a phase moves.
#include "kernel/Extract.hpp"
#include "kernel/Module.hpp"

#include <catch2/catch.hpp>
#include <map>

using namespace ptxmc;
using namespace ptxmc::kernel;

namespace {

KernelProgram extractFile(const std::string& name, const std::string& param1) {
    const Module m =
        parseModuleFile(std::string(PTXMC_SOURCE_DIR) + "/tests/kernel/locations/" + name);
    Launch launch;
    launch.params[{"1", 0}] = std::stoull(param1);
    return extractKernel(m, launch);
}

/** Each declared location: its space, and its bytes (global tiles). */
std::map<std::string, std::pair<ir::Space, std::int64_t>> declared(const KernelProgram& k) {
    std::map<std::string, std::pair<ir::Space, std::int64_t>> out;
    for (const litmus::LocationDecl& d : k.test.locations)
        out[d.name] = {d.space, d.bytes.value_or(0)};
    return out;
}

} // namespace

TEST_CASE("builder: the stages a ring uses end as far apart as they are", "[builder]") {
    auto locations = declared(extractFile("scalar-after-ring.ptx", "3072"));
    CHECK(locations.count("ring_0"));
    CHECK(locations.count("ring_512"));
    CHECK(locations.at("full").first == ir::Space::Mbarrier);
    CHECK(locations.at("param_0_1_0").second == 512); // the tile of map param_0 at (1, 0)
    CHECK(locations.size() == 6);                     // the scalar is no async buffer
}

TEST_CASE("builder: a buffer warps write in disjoint parts is a location per writer", "[builder]") {
    const KernelProgram k = extractFile("union-tma.ptx", "1");
    auto locations = declared(k);
    for (int w = 0; w < 4; ++w) {
        const std::string part = "buf_w" + std::to_string(w);
        CHECK(locations.count(part));
        // the TMA store of the buffer: one copy per part, its own piece of the global tile
        CHECK(locations.at("param_0_0_0_w" + std::to_string(w)).second == 1024);
    }
    CHECK_FALSE(locations.count("buf"));
}

TEST_CASE("builder: identical warps are one role, copies before an expect_tx share its bytes",
          "[builder]") {
    const KernelProgram k = extractFile("copies-before-expect.ptx", "1");
    REQUIRE(k.threadNames ==
            std::vector<std::string>{"CTA 0 warp 0", "CTA 0 warps 1,2,3 (identical)"});
    auto locations = declared(k);
    // 33280 bytes in multiples of 16, the last copy taking the rest
    CHECK(locations.at("param_0_0_0").second == 11088);
    CHECK(locations.at("param_0_0_1").second == 11088);
    CHECK(locations.at("param_0_0_2").second == 11104);
    // `empty` counts 3 arrivals, one per consumer warp: one role arriving once, count 1
    const litmus::Instruction& init = k.test.threads.at(0).code.at(1);
    REQUIRE(init.opcode == "mbarrier.init.shared::cta.b64");
    CHECK(init.operands.at(0).name == "empty");
    CHECK(init.operands.at(1).value == 1);
    CHECK(k.stats.threads == 2);
    CHECK(k.stats.warps == 4);
}

TEST_CASE("builder: a barrier only a peer's multicast commit arrives on keeps its count",
          "[builder]") {
    const Module m = parseModuleFile(std::string(PTXMC_SOURCE_DIR) +
                                     "/tests/kernel/locations/multicast-commit-remote.ptx");
    const KernelProgram k = extractKernel(m, Launch{});
    REQUIRE(k.test.threads.size() == 2);
    for (const auto& t : k.test.threads) { // each CTA's thread 0 initialises both barriers
        std::map<std::string, std::int64_t> counts;
        for (const litmus::Instruction& in : t.code)
            if (in.opcode == "mbarrier.init.shared::cta.b64")
                counts[in.operands.at(0).name] = in.operands.at(1).value;
        CHECK(counts.at("done") == 2);   // two arrivals of CTA 0's commits per phase
        CHECK(counts.at("unused") == 4); // no arrivals: nothing to scale
    }
}
