package io.jdbcrepl.apply;

import io.jdbcrepl.capture.ColumnInfo;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.config.ColumnSet;
import io.jdbcrepl.config.ReplConfig;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.node.TableCatalog;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Where a source's tables are at the destination: a table in the source's current schema (that of
 * the peer connection; MariaDB: its database) maps to the destination's current schema, any other
 * schema keeps its name;
 * names match exactly, else case-insensitively (H2 folds to upper case, PostgreSQL to lower).
 * Metadata is read once per applier, and again for a table when an LCR names a column it lacks.
 */
final class TableMap {

    /**
     * A destination table with the columns an LCR names resolved to stored names.
     *
     * @param overridesIdentity whether an INSERT with all columns needs {@code OVERRIDING SYSTEM VALUE}:
     *     the table has a {@code GENERATED ALWAYS} identity column (PostgreSQL, H2), which takes the
     *     source's value only so
     */
    record LocalTable(TableInfo info, String sql, Set<String> noCompare, boolean noCompareAll, boolean overridesIdentity) {

        /** The stored name of a source column, or null when the table has none such. */
        String column(String sourceName) {
            for (ColumnInfo c : info.columns()) if (c.name().equals(sourceName)) return sourceName;
            return info.column(sourceName).map(ColumnInfo::name).orElse(null); // case-insensitive
        }

        ColumnInfo columnInfo(String stored) {
            return info.column(stored).orElseThrow();
        }

        /** Whether an old value of this (non-key) column is compared on apply; never a large object's. */
        boolean compared(String stored) {
            if (info.isKey(stored)) return true;
            if (columnInfo(stored).isLargeObject()) return false;
            return !noCompareAll && !noCompare.contains(stored.toLowerCase(Locale.ROOT));
        }
    }

    private final Connection local;
    private final Dialect dialect;
    private final ReplConfig config;
    private final String sourceSchema;
    private final String localSchema;
    private final Map<String, LocalTable> tables = new HashMap<>();

    TableMap(Connection local, Dialect dialect, ReplConfig config, String sourceSchema, String localSchema) {
        this.local = local;
        this.dialect = dialect;
        this.config = config;
        this.sourceSchema = sourceSchema;
        this.localSchema = localSchema;
    }

    /** The destination schema of a source table's schema. */
    static String mapSchema(String schema, String sourceHomeSchema, String localHomeSchema) {
        if (schema == null || schema.equals(sourceHomeSchema)) return localHomeSchema;
        return schema;
    }

    /** The names to try for a name: as given, then folded both ways. */
    static List<String> candidates(String name) {
        Set<String> out = new LinkedHashSet<>();
        out.add(name);
        out.add(name.toLowerCase(Locale.ROOT));
        out.add(name.toUpperCase(Locale.ROOT));
        return new ArrayList<>(out);
    }

    /** Reads the table's metadata again at the next {@link #resolve}. */
    void forget(String schema, String table) {
        tables.remove(key(schema, table));
    }

    /** After DDL: every table's metadata is read again. */
    void forgetAll() {
        tables.clear();
    }

    private static String key(String schema, String table) {
        return schema + "\u0000" + table;
    }

    /** SPEC 8.2: whether the table has a GENERATED ALWAYS identity column, into which apply writes the source's keys. */
    private boolean alwaysIdentity(TableInfo info) throws SQLException {
        return dialect.part(io.jdbcrepl.keys.KeySql.class).alwaysIdentity(local, info.schema(), info.name());
    }

    /** The destination table of a source table. */
    LocalTable resolve(String schema, String table) throws SQLException {
        String key = key(schema, table);
        LocalTable known = tables.get(key);
        if (known != null) return known;
        String mapped = mapSchema(schema, sourceSchema, localSchema);
        for (String s : candidates(mapped)) {
            for (String t : candidates(table)) {
                List<String> keyOverride = config.keyColumns(s, t, localSchema, dialect.foldsToUpper())
                        .map(cols -> cols.stream().map(dialect::fold).toList()).orElse(null);
                Optional<TableInfo> info = TableCatalog.load(local, dialect, s, t, null);
                if (info.isEmpty()) continue;
                // SPEC 5.3: the keys' columns, for a table created after connect checked at its first LCR
                io.jdbcrepl.node.TableRules.check(config, dialect, info.get(), localSchema);
                if (keyOverride != null) info = TableCatalog.load(local, dialect, s, t, keyOverride);
                try {
                    info = Optional.of(info.get().keyedByComparableColumns()); // SPEC 3.3: Oracle's rule without a key
                } catch (IllegalArgumentException e) {
                    throw SqlState.INVALID_COLUMN_REFERENCE.exception(e.getMessage());
                }
                Optional<ColumnSet> nc = config.noCompare(s, t, localSchema, dialect.foldsToUpper());
                Set<String> noCompare = new java.util.HashSet<>();
                nc.ifPresent(set -> set.columns().forEach(c -> noCompare.add(c.toLowerCase(Locale.ROOT))));
                LocalTable found = new LocalTable(info.get(), RowSql.table(dialect, s, t), noCompare,
                        nc.map(ColumnSet::star).orElse(false), alwaysIdentity(info.get()));
                tables.put(key, found);
                return found;
            }
        }
        throw SqlState.UNDEFINED_TABLE.exception("Table " + (schema == null ? "" : schema + ".") + table + " of the source has no"
                + " counterpart here (looked for it in schema " + mapped + ")");
    }
}
