// The parameter fields a launch gives (--param, --params, --param-bytes) and the loads that read
// them.
#pragma once

#include "kernel/Launch.hpp"
#include "kernel/Machine.hpp"
#include "kernel/Module.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace ptxmc::kernel {

/**
 * The fields of an entry's parameters a launch gives, by (parameter index, byte offset), and
 * every load of them the evaluation ran (Extraction::paramReads). A field is as wide as the
 * load that reads it: a load straddling two given fields, or covering part of one, is an error.
 */
class ParamFields {
public:
    /** Takes the launch's fields; throws InputError on a field or parameter the entry lacks. */
    ParamFields(const Function& entry, const Layout& layout, const Launch& launch);

    /**
     * What `bytes` bytes at `addr + at` (an address in the parameter window) read for the load
     * at body statement `stmt`: the value given, or an unknown naming the field (its index in
     * `reads` plus 1); each (field, width, statement) is appended to `reads` once.
     */
    Val load(std::size_t stmt, Val addr, std::uint64_t at, std::uint64_t bytes,
             std::vector<ParamRead>& reads);

    /** A warning for each field given that none of `reads` read. */
    std::vector<Note> unread(const std::vector<ParamRead>& reads) const;

    /** The note listing the fields `reads` read and no option gave, if any. */
    std::optional<Note> notGiven(const std::vector<ParamRead>& reads) const;

    /** "0 = k_param_0, 1 = k_param_1" ("none"): what --param may name. */
    std::string names() const;

    /** A load's element width: its type's (8 bytes where none is written). */
    static std::uint64_t loadBytes(const std::vector<std::string>& parts);

private:
    using Field = std::pair<std::size_t, std::uint64_t>; ///< (parameter index, byte offset)
    using Key = std::pair<std::string, std::uint64_t>;   ///< as given: (name, offset)

    bool names(std::size_t i, const std::string& given) const;
    void giveBytes(const std::string& given, const std::vector<std::uint8_t>& bytes);
    SourceLoc givenAt(const Key& key, bool fromFile) const;
    void giveField(const Key& key, std::uint64_t value, bool fromFile);
    std::optional<std::uint64_t> dumped(std::size_t index, std::uint64_t off,
                                        std::uint64_t bytes) const;
    std::string fieldName(std::size_t index, std::uint64_t offset) const;
    void checkCover(const litmus::Instruction& in, std::size_t index, std::uint64_t off,
                    std::uint64_t bytes) const;

    const Function& f_;
    const Layout& layout_;
    const Launch& launch_;
    std::map<Field, std::uint64_t> given_;                   ///< --param
    std::map<std::size_t, std::vector<std::uint8_t>> dumps_; ///< --param-bytes, by index
    /// each given field: how it was named, and whether --params gave it (not --param)
    std::map<Field, std::pair<Key, bool>> givenFrom_;
    /// the widest load of each given field so far: a narrower one inside it is an error
    std::map<Field, std::uint64_t> readBytes_;
    /// (parameter, offset, bytes, load statement) -> its index in the reads
    std::map<std::tuple<std::size_t, std::uint64_t, std::uint64_t, std::size_t>, std::size_t>
        reads_;
};

} // namespace ptxmc::kernel
