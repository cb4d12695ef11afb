// The line each location is named by: its first use's frame where the chains of its kind part.
#include "kernel/CodeNames.hpp"

#include "kernel/Extract.hpp"

#include <algorithm>

namespace ptxmc::kernel {

namespace {

bool sameFrame(const SourceLine& a, const SourceLine& b) {
    return a.line == b.line && a.file == b.file;
}

bool sameChain(const std::vector<SourceLine>& a, const std::vector<SourceLine>& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), sameFrame);
}

const char* kindName(ir::Space s) {
    switch (s) {
    case ir::Space::Mbarrier:
        return "barrier";
    case ir::Space::Shared:
        return "buffer";
    case ir::Space::Tmem:
        return "tensor memory";
    default:
        return "global tile";
    }
}

/** The `.loc` of the instruction that first names `name`, or nullptr. */
const CudaLine* firstUseLine(const KernelProgram& k, const std::string& name) {
    auto use = k.firstUse.find(name);
    if (use == k.firstUse.end()) return nullptr;
    auto cuda = k.cudaLines.find(use->second.first.line);
    return cuda == k.cudaLines.end() ? nullptr : &cuda->second;
}

/** `c`'s frames, outermost (the kernel's own line) first. */
std::vector<SourceLine> outermostFirst(const CudaLine& c) {
    std::vector<SourceLine> chain = c.frames();
    std::reverse(chain.begin(), chain.end());
    return chain;
}

} // namespace

std::optional<SourceLine> partingFrame(const std::vector<SourceLine>& chain,
                                       const std::vector<std::vector<SourceLine>>& others) {
    // The deepest point where another chain leaves this one: the frames outside it are shared
    // with that other location, the frame there is this location's own.
    std::optional<std::size_t> depth;
    for (const auto& other : others) {
        if (sameChain(chain, other)) continue; // one instruction names both: no line parts them
        std::size_t common = 0;
        while (common < chain.size() && common < other.size() &&
               sameFrame(chain[common], other[common]))
            ++common;
        depth = std::max(depth.value_or(0), common);
    }
    if (!depth || chain.empty()) return std::nullopt;
    return chain[std::min(*depth, chain.size() - 1)];
}

std::map<std::string, CodeName> codeNames(const KernelProgram& k) {
    std::map<std::string, std::vector<std::string>> byKind;
    std::map<std::string, const CudaLine*> lines;
    for (const litmus::LocationDecl& d : k.test.locations)
        if (const CudaLine* c = firstUseLine(k, d.name)) {
            lines[d.name] = c;
            byKind[kindName(d.space)].push_back(d.name);
        }
    std::map<std::string, CodeName> out;
    for (const auto& [kind, names] : byKind) {
        std::vector<std::vector<SourceLine>> chains;
        for (const std::string& n : names)
            chains.push_back(outermostFirst(*lines[n]));
        // alone of its kind, or named by one line with all of it: the user's innermost line
        for (std::size_t i = 0; i < names.size(); ++i)
            out[names[i]] = CodeName{
                kind, partingFrame(chains[i], chains).value_or(lines[names[i]]->userLine())};
    }
    return out;
}

} // namespace ptxmc::kernel
