package io.jdbcrepl.capture;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which columns an LCR carries (SPEC 3.3), in table order.
 *
 * @param oldColumns columns whose old values are logged
 * @param newColumns columns whose new values are logged
 * @param changeVector the columns the statement (and the driver's timestamp) assigned
 */
public record LoggedColumns(List<String> oldColumns, List<String> newColumns, List<String> changeVector) {

    /** INSERT: every column's new value, as stored. */
    public static LoggedColumns forInsert(TableInfo table, List<String> assigned, CaptureSettings settings) {
        List<String> all = names(table);
        return new LoggedColumns(List.of(), all, inTableOrder(table, withTimestamp(assigned, settings, table)));
    }

    /** DELETE: every column's old value (but a large object's, see {@link #comparable}). */
    public static LoggedColumns forDelete(TableInfo table) {
        return new LoggedColumns(comparable(table, names(table)), List.of(), List.of());
    }

    /**
     * UPDATE: new values of the assigned columns and the maintained timestamp; old values of the key,
     * the assigned columns, every unconditional group and every conditional group with an assigned
     * member ({@code KEYS}), or of every column ({@code ALL}).
     */
    public static LoggedColumns forUpdate(TableInfo table, List<String> assigned, CaptureSettings settings) {
        List<String> changed = inTableOrder(table, withTimestamp(assigned, settings, table));
        if (settings.allOldValues()) return new LoggedColumns(comparable(table, names(table)), changed, changed);
        Set<String> old = new LinkedHashSet<>(table.key());
        old.addAll(changed);
        for (List<String> group : settings.alwaysGroups()) old.addAll(stored(table, group));
        for (List<String> group : settings.conditionalGroups()) {
            List<String> members = stored(table, group);
            if (members.stream().anyMatch(changed::contains)) old.addAll(members);
        }
        return new LoggedColumns(comparable(table, inTableOrder(table, old)), changed, changed);
    }

    /**
     * The columns whose old values can be logged: all but PostgreSQL large objects. As Oracle does
     * with LOB columns, their old values are neither logged nor compared on apply: the object may be
     * unlinked already (the lo module's trigger does it within the UPDATE), and reading it would cost
     * its whole content on every change of the row. A large object is never a key column (refused
     * when the table is loaded).
     */
    private static List<String> comparable(TableInfo table, List<String> columns) {
        return columns.stream()
                .filter(c -> table.column(c).map(i -> i.type() != io.jdbcrepl.lcr.ValueType.LARGE_OBJECT).orElse(true))
                .toList();
    }

    private static List<String> withTimestamp(List<String> assigned, CaptureSettings settings, TableInfo table) {
        List<String> out = new ArrayList<>(stored(table, assigned));
        if (settings.timestampColumn() != null) {
            String ts = table.storedName(settings.timestampColumn());
            if (!out.contains(ts)) out.add(ts);
        }
        return out;
    }

    private static List<String> stored(TableInfo table, List<String> columns) {
        return columns.stream().map(table::storedName).toList();
    }

    private static List<String> names(TableInfo table) {
        return table.columns().stream().map(ColumnInfo::name).toList();
    }

    private static List<String> inTableOrder(TableInfo table, java.util.Collection<String> columns) {
        Set<String> wanted = new LinkedHashSet<>(columns);
        return names(table).stream().filter(wanted::contains).toList();
    }
}
