// The installed header ptxmc/params_dump.h: a parameter struct dumped by host code is the bytes
// `ptxmc kernel --param-bytes` reads (tests/kernel/struct-params.bin, which its CLI cases use).
#include "kernel/Machine.hpp"
#include "kernel/Module.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <ptxmc/params_dump.h>
#include <vector>

using namespace ptxmc;

namespace {

/** The Params of tests/kernel/struct-params.ptx, as the host would declare it. */
struct RoundsParams {
    std::uint64_t data;
    std::uint32_t producerRounds, consumerRounds;
    float beta;
    std::uint32_t pad;
};

std::vector<std::uint8_t> bytesOf(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

} // namespace

TEST_CASE("params dump: host code writes a struct's bytes", "[params-dump]") {
    const RoundsParams p{0x7f0000001000ULL, 3, 3, 1.0f, 0};
    auto path = std::filesystem::temp_directory_path() / "ptxmc-params-dump-test.bin";
    REQUIRE(ptxmc::dump_params(path.string().c_str(), p) == 0);
    std::vector<std::uint8_t> written = bytesOf(path);
    std::filesystem::remove(path);
    CHECK(written.size() == sizeof(RoundsParams));
    CHECK(written == bytesOf(std::string(PTXMC_SOURCE_DIR) + "/tests/kernel/struct-params.bin"));
    CHECK(ptxmc::dump_params("/nonexistent-folder/params.bin", p) == -1);
}

TEST_CASE("params dump: the bytes give every field, --param overrides one", "[params-dump]") {
    const kernel::Module m =
        kernel::parseModuleFile(std::string(PTXMC_SOURCE_DIR) + "/tests/kernel/struct-params.ptx");
    kernel::Launch l;
    l.paramBytes["0"] = bytesOf(std::string(PTXMC_SOURCE_DIR) + "/tests/kernel/struct-params.bin");
    kernel::Extraction x = kernel::evaluate(m, kernel::pickEntry(m, ""), l);
    for (const kernel::ParamRead& r : x.paramReads) {
        REQUIRE(r.value);
        if (r.offset == 8 || r.offset == 12) CHECK(*r.value == 3);
        if (r.offset == 16) CHECK(*r.value == 0x3f800000);
    }
    CHECK(x.unread.empty()); // a dump is no list of fields: nothing to warn about
    l.params[{"0", 12}] = 5;
    x = kernel::evaluate(m, kernel::pickEntry(m, ""), l);
    for (const kernel::ParamRead& r : x.paramReads)
        if (r.offset == 12) CHECK(*r.value == 5);
    l.paramBytes["0"].pop_back();
    CHECK_THROWS_WITH(kernel::evaluate(m, kernel::pickEntry(m, ""), l),
                      Catch::Contains("--param-bytes 0 gives 23 bytes; parameter 0 (param_0) "
                                      "has 24"));
}
