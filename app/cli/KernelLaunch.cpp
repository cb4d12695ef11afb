// The launch options of a kernel's PTX, shared by `kernel` and `explain`, and the names of a
// kernel's events in its PTX and CUDA lines.
#include "cli/KernelLaunch.hpp"

#include "engine/Flags.hpp"
#include "kernel/Module.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>

namespace ptxmc::cli {

namespace {

std::array<int, 3> dims(const std::string& text, const char* option) {
    std::array<int, 3> d{1, 1, 1};
    std::size_t pos = 0;
    for (int k = 0; k < 3 && pos <= text.size(); ++k) {
        std::size_t comma = text.find(',', pos);
        std::string part =
            text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        try {
            std::size_t used = 0;
            int v = std::stoi(part, &used);
            if (used != part.size() || v <= 0) throw std::invalid_argument(part);
            d[static_cast<std::size_t>(k)] = v;
        } catch (const std::exception&) {
            throw InputError(SourceLoc{option, 1, static_cast<int>(pos) + 1},
                             std::string(option) +
                                 " takes X[,Y[,Z]] with positive integers, got '" + text + "'");
        }
        if (comma == std::string::npos) return d;
        pos = comma + 1;
    }
    throw InputError(SourceLoc{option, 1, 1}, std::string(option) + " takes at most three sizes");
}

/** An integer of --global's text at `pos`: decimal or 0x; `what` names it in the error. */
std::uint64_t globalNumber(const std::string& arg, std::size_t pos, std::size_t end,
                           const char* what) {
    std::string text = arg.substr(pos, end - pos);
    try {
        std::size_t used = 0;
        if (text.empty() || text[0] == '-') throw std::invalid_argument(text);
        std::uint64_t v = std::stoull(text, &used, 0);
        if (used != text.size()) throw std::invalid_argument(text);
        return v;
    } catch (const std::exception&) {
        throw InputError(
            SourceLoc{"--global", 1, static_cast<int>(pos) + 1},
            fmt::format("--global: {} must be an integer (decimal or 0x), got '{}'", what, text));
    }
}

/**
 * --global ADDRESS=TYPE:V,V,... (TYPE u8, u16, u32 or u64: each value that wide, little-endian)
 * or ADDRESS=@FILE (the file's bytes): global memory the host wrote before the launch.
 */
std::pair<std::uint64_t, std::vector<std::uint8_t>> globalBytes(const std::string& arg) {
    std::size_t eq = arg.find('=');
    if (eq == std::string::npos || eq == 0)
        throw InputError(SourceLoc{"--global", 1, 1},
                         "--global takes ADDRESS=TYPE:V,V,... or ADDRESS=@FILE, got '" + arg + "'");
    std::uint64_t address = globalNumber(arg, 0, eq, "the address");
    std::vector<std::uint8_t> bytes;
    if (arg.compare(eq + 1, 1, "@") == 0) {
        std::string path = arg.substr(eq + 2);
        std::ifstream in(path, std::ios::binary);
        if (!in)
            throw InputError(SourceLoc{"--global", 1, static_cast<int>(eq) + 3},
                             "--global: cannot read '" + path + "'");
        bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    } else {
        std::size_t colon = arg.find(':', eq);
        std::string type = arg.substr(eq + 1, colon == std::string::npos ? 0 : colon - eq - 1);
        int width = type == "u8"    ? 1
                    : type == "u16" ? 2
                    : type == "u32" ? 4
                    : type == "u64" ? 8
                                    : 0;
        if (width == 0)
            throw InputError(SourceLoc{"--global", 1, static_cast<int>(eq) + 2},
                             "--global: the values need a type, u8, u16, u32 or u64 (ADDRESS=u32:"
                             "V,V,...), got '" +
                                 arg.substr(eq + 1) + "'");
        for (std::size_t pos = colon + 1; pos <= arg.size();) {
            std::size_t comma = std::min(arg.find(',', pos), arg.size());
            std::uint64_t v = globalNumber(arg, pos, comma, "each value");
            if (width < 8 && (v >> (8 * width)) != 0)
                throw InputError(SourceLoc{"--global", 1, static_cast<int>(pos) + 1},
                                 fmt::format("--global: {} does not fit {}", v, type));
            for (int b = 0; b < width; ++b)
                bytes.push_back(static_cast<std::uint8_t>(v >> (8 * b)));
            pos = comma + 1;
        }
    }
    if (bytes.empty())
        throw InputError(SourceLoc{"--global", 1, static_cast<int>(eq) + 2},
                         "--global gives no bytes at " + arg.substr(0, eq));
    return {address, std::move(bytes)};
}

} // namespace

std::vector<CLI::Option*> addLaunchOptions(CLI::App& sub, LaunchArgs& args) {
    std::vector<CLI::Option*> out;
    out.push_back(sub.add_option("--entry", args.entry,
                                 "the .entry to check (a substring of its name); "
                                 "needed when the module has several"));
    out.push_back(sub.add_option("--block", args.block,
                                 "threads per CTA, X[,Y,Z]; default: .reqntid or .maxntid"));
    out.push_back(sub.add_option("--cluster", args.cluster,
                                 "CTAs per cluster, X[,Y,Z]; default: "
                                 ".reqnctapercluster, else 1"));
    out.push_back(sub.add_option("--grid", args.grid,
                                 "CTAs in the grid, X[,Y,Z] (what %nctaid reads); "
                                 "default: one cluster. Only one cluster is checked"));
    out.push_back(
        sub.add_option("--param", args.params,
                       "a kernel parameter's value, NAME=VALUE (NAME: the PTX name, its _param_N "
                       "suffix or its index), or a field of a struct parameter, NAME+OFFSET=VALUE "
                       "(OFFSET in bytes, decimal or 0x; as wide as the load that reads it); once "
                       "per field")
            ->take_all()
            ->expected(1)
            ->allow_extra_args(false));
    out.push_back(
        sub.add_option("--global", args.globals,
                       "global memory the host wrote before the launch, which the kernel's loads "
                       "read (sequence lengths, a tile count): ADDRESS=TYPE:V,V,... (TYPE u8, u16, "
                       "u32 or u64) or ADDRESS=@FILE (its bytes); give the pointer parameter the "
                       "ADDRESS with --param")
            ->take_all()
            ->expected(1)
            ->allow_extra_args(false));
    out.push_back(
        sub.add_option("--dynamic-smem", args.dynamicSmem, "bytes of dynamic shared memory"));
    out.push_back(
        sub.add_option("--tiles", args.tiles,
                       "tiles the checked cluster runs where clusterlaunchcontrol.try_cancel "
                       "schedules them: the first N-1 requests each cancel the next cluster of the "
                       "grid (--grid must hold N clusters), the next one fails; default 2")
            ->check(CLI::Range(1, 64)));
    out.push_back(sub.add_option(
        "--max-steps", args.maxSteps,
        "instructions one thread may execute before ptxmc calls its loop unbounded"));
    return out;
}

kernel::Launch launchOf(const LaunchArgs& a) {
    kernel::Launch l;
    l.entry = a.entry;
    if (!a.block.empty()) l.block = dims(a.block, "--block");
    if (!a.cluster.empty()) l.cluster = dims(a.cluster, "--cluster");
    if (!a.grid.empty()) l.grid = dims(a.grid, "--grid");
    for (const std::string& p : a.params) {
        std::size_t eq = p.find('=');
        std::size_t plus = p.rfind('+', eq);
        if (eq == std::string::npos || eq == 0 || plus == 0)
            throw InputError(SourceLoc{"--param", 1, 1},
                             "--param takes NAME=VALUE or NAME+OFFSET=VALUE, got '" + p + "'");
        std::string name = p.substr(0, std::min(eq, plus));
        std::uint64_t offset = 0;
        if (plus != std::string::npos) {
            std::string text = p.substr(plus + 1, eq - plus - 1);
            bool hex = text.rfind("0x", 0) == 0 || text.rfind("0X", 0) == 0;
            try {
                std::size_t used = 0;
                offset = std::stoull(hex ? text.substr(2) : text, &used, hex ? 16 : 10);
                if (used + (hex ? 2 : 0) != text.size() || text[hex ? 2 : 0] == '-')
                    throw std::invalid_argument(text);
            } catch (const std::exception&) {
                throw InputError(SourceLoc{"--param", 1, static_cast<int>(plus) + 2},
                                 "--param " + name +
                                     "+OFFSET: the offset is a byte count "
                                     "(decimal or 0x), got '" +
                                     text + "'");
            }
        }
        std::string value = p.substr(eq + 1);
        try {
            std::size_t used = 0;
            std::uint64_t v = std::stoull(value, &used, 0);
            if (used != value.size()) throw std::invalid_argument(value);
            l.params[{name, offset}] = v;
        } catch (const std::exception&) {
            throw InputError(SourceLoc{"--param", 1, static_cast<int>(eq) + 2},
                             "--param " + p.substr(0, eq) + " needs an integer value, got '" +
                                 value + "'");
        }
    }
    for (const std::string& g : a.globals) {
        auto [address, bytes] = globalBytes(g);
        auto next = l.globals.lower_bound(address);
        bool overlaps = (next != l.globals.end() && next->first < address + bytes.size()) ||
                        (next != l.globals.begin() &&
                         std::prev(next)->first + std::prev(next)->second.size() > address);
        if (overlaps)
            throw InputError(SourceLoc{"--global", 1, 1},
                             "--global " + g + " overlaps bytes another --global gives");
        l.globals.emplace(address, std::move(bytes));
    }
    l.dynamicShared = a.dynamicSmem;
    l.maxSteps = a.maxSteps;
    l.tiles = a.tiles;
    return l;
}

bool isPtxModule(const std::string& path) {
    std::string ext = path.size() >= 4 ? path.substr(path.size() - 4) : "";
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (ext == ".ptx") return true;
    std::ifstream in(path);
    std::string line;
    for (int n = 0; n < 200 && std::getline(in, line); ++n) {
        std::size_t first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos || line.compare(first, 2, "//") == 0) continue;
        return line.compare(first, 8, ".version") == 0;
    }
    return false;
}

kernel::KernelProgram extractKernelFile(const std::string& path, const kernel::Launch& launch) {
    const kernel::Module m = kernel::parseModuleFile(path);
    kernel::KernelProgram k = kernel::extractKernel(m, launch);
    if (k.test.threads.empty())
        throw InputError(SourceLoc{path, 0, 0}, "entry " + k.test.name +
                                                    " has no memory or synchronization instruction "
                                                    "ptxmc checks under this launch");
    return k;
}

std::string kernelEventText(const engine::EventRef& e, const kernel::KernelProgram& k) {
    std::string who = e.thread >= 0 && static_cast<std::size_t>(e.thread) < k.threadNames.size()
                          ? k.threadNames[static_cast<std::size_t>(e.thread)]
                          : std::string("init");
    std::string s =
        fmt::format("{}: {}{} at {}", who, e.text, engine::mbarrierText(e), e.loc.str());
    if (e.iteration >= 0) s += fmt::format(" (iteration {})", e.iteration);
    auto cuda = k.cudaLines.find(e.loc.line);
    if (cuda != k.cudaLines.end())
        s += fmt::format(" ({}:{})", cuda->second.file, cuda->second.line);
    if (!e.note.empty()) s += " [" + e.note + "]";
    return s;
}

std::string kernelLineText(int line, const kernel::KernelProgram& k) {
    SourceLoc at{k.test.file, line, 0};
    for (const litmus::Thread& t : k.test.threads)
        for (const litmus::Instruction& i : t.code)
            if (i.loc.line == line) {
                at = i.loc;
                break;
            }
    std::string s = at.col > 0 ? at.str() : fmt::format("{}:{}", k.test.file, line);
    auto cuda = k.cudaLines.find(line);
    if (cuda != k.cudaLines.end())
        s += fmt::format(" ({}:{})", cuda->second.file, cuda->second.line);
    return s;
}

} // namespace ptxmc::cli
