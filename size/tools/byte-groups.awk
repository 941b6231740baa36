# Sums the symbols of `arm-none-eabi-nm -C --print-size --radix=d` inside the measured sections
# (`ranges`: start end pairs) into byte groups, the first group whose pattern a symbol's name
# matches, and prints each group's bytes and share of `total` (.text + .rodata). What no symbol
# covers (unnamed constants, alignment) is the last line.
BEGIN {
    n_ranges = split(ranges, r, " ")
    n = 0
    group("derived decoders: serde's Deserialize and visitors, the objects-only wrapper",
          "Deserialize|Visitor|DeserializeSeed|MapAccess|SeqAccess|EnumAccess|serde_core::de|object_only|tagged::")
    group("the record's member decoder (session::records::decode)", "session::records::decode")
    group("outline and scans of JSON text", "json_text|json_tokens|record_codec::scan|nesting::|echo::")
    group("encoders: serde's Serialize and serde_json's writer", "Serialize|serde_json::ser")
    group("serde_json's reader and its errors", "serde_json::")
    group("numbers: float and integer text, compiler builtins", "zmij|itoa|compiler_builtins|flt2dec|float|__aeabi|num::")
    group("allocation and collections", "alloc::|btree|hashbrown|embedded_alloc|linked_list_allocator|drop_in_place")
    group("core: formatting, str, char, slices, sorting, iterators",
          "core::fmt|core::str|char|unicode|Formatter|Display|Debug|core::slice|core::iter|memcmp|memchr")
    group("the rest of agent_interface", "agent_interface")
    group("everything else", ".")
}
function group(label, pattern) { n++; labels[n] = label; patterns[n] = pattern; sums[n] = 0 }
{
    addr = $1 + 0; size = $2 + 0; inside = 0
    if (NF < 4) next
    for (i = 1; i < n_ranges; i += 2) if (addr >= r[i] && addr < r[i + 1]) inside = 1
    if (!inside) next
    name = $4; for (i = 5; i <= NF; i++) name = name " " $i
    for (g = 1; g <= n; g++) if (name ~ patterns[g]) { sums[g] += size; counted += size; break }
}
END {
    for (g = 1; g <= n; g++) printf "%9d  %6.2f%%  %s\n", sums[g], 100 * sums[g] / total, labels[g]
    printf "%9d  %6.2f%%  %s\n", total - counted, 100 * (total - counted) / total, "no symbol: unnamed constants, alignment"
}
