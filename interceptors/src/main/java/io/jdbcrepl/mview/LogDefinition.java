package io.jdbcrepl.mview;

import io.jdbcrepl.mview.MviewCommand.Name;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * A materialized view log: its master, its table, its options, the master columns it copies (key
 * columns first, then the listed ones, as the seed's {@code desc} shows) and the master's primary key.
 */
public record LogDefinition(Name master, String logTable, boolean primaryKey, boolean rowid, boolean sequence,
        List<String> listed, boolean newValues, List<String> masterKey) {

    /** Oracle keeps the first 20 characters of the table's name. */
    static final int NAME_CHARACTERS = 20;

    /**
     * {@code MLOG$_} and the first 20 characters of the table's name, with a number appended
     * (2, 3, …) while {@code taken} says the name exists; in the case the database folds to.
     */
    public static String logTableName(String table, boolean upperCase, Predicate<String> taken) {
        String base = "MLOG$_" + (table.length() > NAME_CHARACTERS ? table.substring(0, NAME_CHARACTERS) : table);
        base = upperCase ? base.toUpperCase(Locale.ROOT) : base.toLowerCase(Locale.ROOT);
        String name = base;
        for (int n = 1; taken.test(name); n++) name = base + n;
        return name;
    }

    /** The master columns the log copies, in the log's column order, without repeats. */
    public List<String> columns() {
        List<String> out = new ArrayList<>();
        if (primaryKey) out.addAll(masterKey);
        for (String c : listed) {
            if (out.stream().noneMatch(c::equalsIgnoreCase)) out.add(c);
        }
        return out;
    }

    /** Whether the log copies this master column. */
    public boolean copies(String column) {
        return columns().stream().anyMatch(column::equalsIgnoreCase);
    }

    /** The options as Oracle writes them, for messages and the catalog. */
    public String options() {
        List<String> with = new ArrayList<>();
        if (primaryKey) with.add("PRIMARY KEY");
        if (rowid) with.add("ROWID");
        if (sequence) with.add("SEQUENCE");
        String s = with.isEmpty() ? "" : "WITH " + String.join(", ", with);
        if (!listed.isEmpty()) s += (s.isEmpty() ? "WITH (" : " (") + String.join(", ", listed) + ")";
        if (newValues) s += " INCLUDING NEW VALUES";
        return s.trim();
    }
}
