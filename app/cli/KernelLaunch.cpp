// The launch options of a kernel's PTX, shared by `kernel` and `explain`, and the names of a
// kernel's events in its PTX and CUDA lines.
#include "cli/KernelLaunch.hpp"

#include "engine/Flags.hpp"
#include "kernel/Module.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <iterator>
#include <map>
#include <tuple>

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

/** `text` less the blanks at both ends; `first` is moved to the first kept character. */
std::string trimmed(const std::string& text, std::size_t& first) {
    std::size_t b = text.find_first_not_of(" \t\r");
    if (b == std::string::npos) return first += text.size(), std::string();
    std::size_t e = text.find_last_not_of(" \t\r");
    first += b;
    return text.substr(b, e - b + 1);
}

/** A parameter field and the value given for it. */
struct GivenField {
    std::pair<std::string, std::uint64_t> key; ///< (NAME, OFFSET)
    std::uint64_t value = 0;
};

/**
 * NAME=VALUE or NAME+OFFSET=VALUE (blanks allowed around '=', '+'): `at` is where `p` starts
 * (its column counts from 1), `what` prefixes the messages ("--param ", or "" in a file).
 */
GivenField parseParam(const std::string& p, const SourceLoc& at, const std::string& what) {
    auto loc = [&](std::size_t pos) {
        return SourceLoc{at.file, at.line, at.col + static_cast<int>(pos)};
    };
    std::size_t eq = p.find('=');
    std::size_t plus = p.rfind('+', eq);
    std::size_t namePos = 0;
    std::string name =
        eq == std::string::npos ? std::string() : trimmed(p.substr(0, std::min(eq, plus)), namePos);
    if (eq == std::string::npos || name.empty()) {
        std::size_t lead = 0;
        std::string shown = trimmed(p, lead);
        if (!what.empty())
            throw InputError(loc(0),
                             what + "takes NAME=VALUE or NAME+OFFSET=VALUE, got '" + p + "'");
        throw InputError(loc(lead), "a line gives a field as NAME = VALUE or NAME+OFFSET = "
                                    "VALUE, got '" +
                                        shown + "'");
    }
    GivenField g;
    if (plus != std::string::npos) {
        std::size_t at0 = plus + 1;
        std::string text = trimmed(p.substr(plus + 1, eq - plus - 1), at0);
        bool hex = text.rfind("0x", 0) == 0 || text.rfind("0X", 0) == 0;
        try {
            std::size_t used = 0;
            g.key.second = std::stoull(hex ? text.substr(2) : text, &used, hex ? 16 : 10);
            if (used + (hex ? 2 : 0) != text.size() || text[hex ? 2 : 0] == '-')
                throw std::invalid_argument(text);
        } catch (const std::exception&) {
            throw InputError(loc(at0), (what.empty() ? "field " : what) + name +
                                           "+OFFSET: the offset is a byte count "
                                           "(decimal or 0x), got '" +
                                           text + "'");
        }
    }
    g.key.first = name;
    std::size_t valuePos = eq + 1;
    std::string value = trimmed(p.substr(eq + 1), valuePos);
    std::string field =
        name + (plus == std::string::npos ? std::string() : "+" + std::to_string(g.key.second));
    if (value == "?")
        throw InputError(loc(valuePos), (what.empty() ? "field " : what) + field +
                                            " has no value yet ('?'): write the value the "
                                            "host passes");
    try {
        std::size_t used = 0;
        if (!value.empty() && value[0] == '-') throw std::invalid_argument(value);
        g.value = std::stoull(value, &used, 0);
        if (used != value.size()) throw std::invalid_argument(value);
    } catch (const std::exception&) {
        throw InputError(loc(valuePos), (what.empty() ? "field " + field : what + p.substr(0, eq)) +
                                            " needs an integer value, got '" + value + "'");
    }
    return g;
}

/** "0+8" ("0" at offset 0; a name as given). */
std::string fieldName(const std::pair<std::string, std::uint64_t>& key) {
    return key.second ? fmt::format("{}+{}", key.first, key.second) : key.first;
}

/**
 * --params FILE: one field a line, as --param writes it (NAME[+OFFSET] = VALUE); '#' starts a
 * comment, blank lines are skipped.
 */
void readParamsFile(const std::string& path, kernel::Launch& l) {
    std::ifstream in(path);
    if (!in) throw InputError(SourceLoc{"--params", 1, 1}, "--params: cannot read '" + path + "'");
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        std::string text = line.substr(0, line.find('#'));
        if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
        GivenField g = parseParam(text, SourceLoc{path, n, 1}, "");
        SourceLoc where{path, n, static_cast<int>(text.find_first_not_of(" \t")) + 1};
        auto [old, fresh] = l.fileParams.emplace(g.key, g.value);
        if (!fresh && old->second != g.value)
            throw InputError(where, fmt::format("field {} is given twice in this file, {} and {}",
                                                fieldName(g.key), old->second, g.value));
        l.paramWhere.emplace(g.key, where);
    }
}

/** --param-bytes NAME=FILE: the parameter's name and the file's bytes. */
std::pair<std::string, std::vector<std::uint8_t>> dumpedParam(const std::string& arg) {
    std::size_t eq = arg.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == arg.size())
        throw InputError(SourceLoc{"--param-bytes", 1, 1},
                         "--param-bytes takes NAME=FILE, got '" + arg + "'");
    std::string path = arg.substr(eq + 1);
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(SourceLoc{"--param-bytes", 1, static_cast<int>(eq) + 2},
                         "--param-bytes: cannot read '" + path + "'");
    std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                    std::istreambuf_iterator<char>());
    return {arg.substr(0, eq), std::move(bytes)};
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
    out.push_back(sub.add_option("--param-bytes", args.paramBytes,
                                 "a parameter's bytes as the host built them, NAME=FILE (a dump "
                                 "written by ptxmc/params_dump.h): every field of it is known; "
                                 "--param and --params override a field")
                      ->take_all()
                      ->expected(1)
                      ->allow_extra_args(false));
    out.push_back(sub.add_option(
        "--params", args.paramsFile,
        "a file of parameter fields, one NAME[+OFFSET] = VALUE a line ('#' starts a comment; "
        "ptxmc kernel --list-params --params-out writes one); --param overrides its values"));
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
    if (!a.paramsFile.empty()) readParamsFile(a.paramsFile, l);
    for (const std::string& p : a.paramBytes) {
        auto [name, bytes] = dumpedParam(p);
        l.paramBytes[name] = std::move(bytes);
    }
    for (const std::string& p : a.params) {
        GivenField g = parseParam(p, SourceLoc{"--param", 1, 1}, "--param ");
        l.params[g.key] = g.value;
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

kernel::KernelProgram extractEntry(const kernel::Module& m, const kernel::Launch& launch) {
    kernel::KernelProgram k = kernel::extractKernel(m, launch);
    if (k.test.threads.empty())
        throw InputError(SourceLoc{m.file, 0, 0}, "entry " + k.test.name +
                                                      " has no memory or synchronization "
                                                      "instruction ptxmc checks under this launch");
    return k;
}

kernel::KernelProgram extractKernelFile(const std::string& path, const kernel::Launch& launch) {
    return extractEntry(kernel::parseModuleFile(path), launch);
}

const kernel::CudaLine* cudaLineOf(const engine::EventRef& e, const kernel::KernelProgram& k) {
    auto cuda = k.cudaLines.find(e.loc.line);
    return cuda != k.cudaLines.end() ? &cuda->second : nullptr;
}

std::vector<InstructionRun> instructionRuns(const ir::Program& p) {
    std::vector<InstructionRun> runs(p.events.size());
    // issue-level events per thread and PTX position, in program order
    std::map<std::tuple<int, int, int>, std::vector<const ir::Event*>> same;
    for (const ir::Event& e : p.events)
        if (e.poIndex >= 0) same[{e.thread, e.loc.line, e.loc.col}].push_back(&e);
    for (auto& [at, events] : same) {
        std::sort(events.begin(), events.end(),
                  [](const ir::Event* a, const ir::Event* b) { return a->poIndex < b->poIndex; });
        for (std::size_t i = 0; i < events.size(); ++i)
            runs[static_cast<std::size_t>(events[i]->id)] = {static_cast<int>(i) + 1,
                                                             static_cast<int>(events.size())};
    }
    for (const ir::Event& e : p.events) // what an instruction performs is of its run
        if (e.poIndex < 0 && e.issue >= 0)
            runs[static_cast<std::size_t>(e.id)] = runs[static_cast<std::size_t>(e.issue)];
    return runs;
}

std::string kernelEventText(const engine::EventRef& e, const kernel::KernelProgram& k, bool chain,
                            const std::vector<InstructionRun>* runs) {
    std::string who = e.thread >= 0 && static_cast<std::size_t>(e.thread) < k.threadNames.size()
                          ? k.threadNames[static_cast<std::size_t>(e.thread)]
                          : std::string("init");
    std::string s =
        fmt::format("{}: {}{} at {}", who, e.text, engine::mbarrierText(e), e.loc.str());
    if (e.iteration >= 0) s += fmt::format(" (iteration {})", e.iteration);
    if (runs != nullptr && e.event >= 0 && static_cast<std::size_t>(e.event) < runs->size())
        if (const InstructionRun& r = (*runs)[static_cast<std::size_t>(e.event)]; r.of > 1)
            s += fmt::format(" (run {} of {})", r.run, r.of);
    if (const kernel::CudaLine* cuda = cudaLineOf(e, k))
        s += " (" +
             (chain ? kernel::cudaText(*cuda) : fmt::format("{}:{}", cuda->file, cuda->line)) + ")";
    if (!e.note.empty()) s += " [" + kernel::wayWords(e.note) + "]";
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
    if (cuda != k.cudaLines.end()) s += " (" + kernel::cudaText(cuda->second) + ")";
    return s;
}

} // namespace ptxmc::cli
