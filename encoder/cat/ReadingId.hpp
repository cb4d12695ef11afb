// A reading of the PTX text: one built-in variant model (model/variants/NAME.cat), named once.
#pragma once

#include <optional>
#include <string>

namespace ptxmc::cat {

/**
 * Which reading: the NAME of model/variants/NAME.cat. Code compares ids; the variant's path
 * (how reports print a reading, and the key of its choices in the folded model) is spelled
 * only by modelFile().
 */
struct ReadingId {
    std::string name; ///< "q1-acquire-wait-orders-tcgen05"

    /** The variant's file under model/: "variants/NAME.cat". */
    std::string modelFile() const { return std::string(kFolder) + name + ".cat"; }

    /** The reading a built-in model file under model/ is ("variants/NAME.cat"), if one. */
    static std::optional<ReadingId> ofModelFile(const std::string& path) {
        const std::string folder = kFolder;
        if (path.rfind(folder, 0) != 0 || !endsWithCat(path)) return std::nullopt;
        return ReadingId{path.substr(folder.size(), path.size() - folder.size() - 4)};
    }

    /** --reading's argument: NAME (also accepted: NAME.cat, variants/NAME.cat). */
    static ReadingId ofArgument(std::string arg) {
        const std::string folder = kFolder;
        if (arg.rfind(folder, 0) == 0) arg = arg.substr(folder.size());
        if (endsWithCat(arg)) arg.resize(arg.size() - 4);
        return ReadingId{arg};
    }

    bool operator==(const ReadingId& other) const { return name == other.name; }
    bool operator!=(const ReadingId& other) const { return name != other.name; }

private:
    static constexpr const char* kFolder = "variants/";
    static bool endsWithCat(const std::string& s) {
        return s.size() > 4 && s.compare(s.size() - 4, 4, ".cat") == 0;
    }
};

} // namespace ptxmc::cat
