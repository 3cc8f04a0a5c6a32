package io.jdbcrepl.node;

import io.jdbcrepl.capture.ColumnInfo;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.config.ColumnSet;
import io.jdbcrepl.config.HandlerDefinition;
import io.jdbcrepl.config.HandlerType;
import io.jdbcrepl.config.LogGroup;
import io.jdbcrepl.config.ReplConfig;
import io.jdbcrepl.config.TableName;
import io.jdbcrepl.conflict.ConflictResolver;
import io.jdbcrepl.conflict.TableSettings;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.lcr.ValueType;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The rules of the table-level keys that need the table's columns (SPEC 5.3 and 3.3): every column
 * that {@code repl.key}, {@code repl.loggroup}, {@code repl.timestamp}, {@code repl.nocompare} and a
 * handler's {@code .columns} and {@code .resolution} name exists; a MAXIMUM or MINIMUM resolution
 * column can be compared (not a LOB or JSON); DELTA's columns are numeric. Broken, they fail with
 * SQLState 22023 and a message naming the key (and handler), the column and the table.
 *
 * <p>Checked at connect for every configured table that exists then ({@link #checkConfigured}), and
 * for a table created later when it is first used: its first captured statement, or the first LCR
 * applied to it.
 */
public final class TableRules {

    private TableRules() {
    }

    /** Connect: the configured tables that exist in the database now. */
    static void checkConfigured(ReplConfig config, Connection raw, Dialect dialect) throws SQLException {
        String current = TableCatalog.currentSchema(raw, dialect);
        for (TableName name : config.configuredTables()) {
            Optional<TableInfo> table = find(raw, dialect, name, current);
            if (table.isPresent()) check(config, dialect, table.get(), current);
        }
    }

    /** A configured table as stored: the name as written, then as the database folds it, then in the other case. */
    private static Optional<TableInfo> find(Connection raw, Dialect dialect, TableName name, String current)
            throws SQLException {
        String schema = name.schema() == null ? current : name.schema();
        for (String s : spellings(schema, dialect)) {
            for (String t : spellings(name.table(), dialect)) {
                Optional<TableInfo> found = TableCatalog.load(raw, dialect, s, t, null);
                if (found.isPresent()) return found;
            }
        }
        return Optional.empty();
    }

    private static Set<String> spellings(String name, Dialect dialect) {
        Set<String> out = new LinkedHashSet<>();
        out.add(name);
        out.add(dialect.fold(name));
        out.add(name.toLowerCase(Locale.ROOT));
        out.add(name.toUpperCase(Locale.ROOT));
        return out;
    }

    /**
     * Checks the keys that name {@code table} (as loaded, without a substitute key applied) against its columns.
     *
     * @param current the connection's current schema, to match keys that name the table without one
     */
    public static void check(ReplConfig config, Dialect dialect, TableInfo table, String current) throws SQLException {
        String schema = table.schema();
        String name = table.name();
        boolean upper = dialect.foldsToUpper();
        Optional<List<String>> key = config.keyColumns(schema, name, current, upper);
        if (key.isPresent()) exist(table, key.get(), "repl.key." + name + "=" + String.join(",", key.get()));
        for (LogGroup group : config.logGroups(schema, name, current, upper)) {
            exist(table, group.columns(), "repl.loggroup." + name + "." + group.name() + "="
                    + String.join(",", group.columns()));
        }
        Optional<String> ts = config.timestampColumn(schema, name, current, upper);
        if (ts.isPresent()) exist(table, List.of(ts.get()), "repl.timestamp." + name + "=" + ts.get());
        Optional<ColumnSet> noCompare = config.noCompare(schema, name, current, upper);
        if (noCompare.isPresent() && !noCompare.get().star()) {
            exist(table, noCompare.get().columns(), "repl.nocompare." + name + "=" + noCompare.get());
        }
        List<HandlerDefinition> handlers = config.handlers(schema, name, current, upper);
        if (handlers.isEmpty()) return;
        for (HandlerDefinition h : handlers) {
            if (!h.columns().star()) exist(table, h.columns().columns(), "Handler " + h.name() + ": repl.handler."
                    + h.name() + ".columns=" + h.columns());
            if (h.resolution() == null) continue;
            String what = "Handler " + h.name() + ": repl.handler." + h.name() + ".resolution=" + h.resolution();
            exist(table, List.of(h.resolution()), what);
            ColumnInfo c = table.column(h.resolution()).orElseThrow();
            boolean ordered = h.type() == HandlerType.MAXIMUM || h.type() == HandlerType.MINIMUM;
            if (ordered && !c.comparable()) {
                throw invalid(what + ": " + h.type() + " (repl.handler." + h.name() + ".type) compares the resolution"
                        + " column, and column " + c.name() + " of table " + table.qualifiedName() + " is of type "
                        + c.typeName() + ", which cannot be compared (a LOB or JSON)");
            }
        }
        // DELTA on numeric columns (a * list: every column in no other list but the key), and the lists as one table
        List<String> keyColumns = key.isPresent() ? key.get() : !table.key().isEmpty() ? table.key()
                : table.columns().stream().filter(ColumnInfo::comparable).map(ColumnInfo::name).toList();
        if (keyColumns.isEmpty()) keyColumns = table.columns().stream().map(ColumnInfo::name).toList();
        Map<String, ValueType> types = new LinkedHashMap<>();
        for (ColumnInfo c : table.columns()) types.put(c.name(), c.type());
        ConflictResolver.forTable(TableSettings.of(schema, name, keyColumns), handlers, types);
    }

    /** Each named column is one of the table's, else 22023 naming {@code what}, the column and the table. */
    private static void exist(TableInfo table, List<String> columns, String what) throws SQLException {
        for (String c : columns) {
            if (table.column(c).isEmpty()) {
                throw invalid(what + " names column " + c + ", which table " + table.qualifiedName()
                        + " does not have (its columns: " + table.columns().stream().map(ColumnInfo::name).toList() + ")");
            }
        }
    }

    private static SQLException invalid(String message) {
        return SqlState.INVALID_PARAMETER_VALUE.exception(message);
    }
}
