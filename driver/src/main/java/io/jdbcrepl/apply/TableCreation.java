package io.jdbcrepl.apply;

import io.jdbcrepl.ddl.TableDdl;
import io.jdbcrepl.ddl.TableDefinition;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.lcr.ValueType;
import io.jdbcrepl.node.TableCatalog;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Creates on a joining node a table it lacks, from the donor's definition (SPEC 8.1). The same
 * database gets the donor's own column types, defaults and identities; another database gets
 * the types that hold each column's portable values exactly ({@link TableDdl#mappedType}), as
 * apply stores them. Primary key, unique constraints and indexes come with the table; foreign
 * keys are added after every table is copied, so that rows can be copied in any order.
 */
public final class TableCreation {

    private TableCreation() {
    }

    /**
     * What creating one missing table takes: run {@code createTable} before copying rows,
     * {@code constraints} (foreign keys) after every table is copied.
     *
     * @param localTable the table, qualified and quoted for the local database
     * @param notes      what the local table does not keep of the donor's (dropped defaults, an ENUM's values)
     */
    public record TablePlan(String localTable, List<String> createTable, List<String> constraints, List<String> notes) {
    }

    /** Whether the local table exists ({@code schema} and {@code table} as stored). */
    public static boolean exists(Connection local, Dialect localDialect, String schema, String table) throws SQLException {
        return TableCatalog.exists(local, localDialect, schema, table);
    }

    /**
     * Reads the donor's table {@code donorSchema.table} (stored names) and plans its creation in
     * {@code localSchema}. Refused, before anything is created, with SQLState {@code 0AR01} naming
     * the column when a column cannot be created here with its values intact; {@code 42P01} when
     * the donor has no such table.
     */
    public static TablePlan plan(Connection donor, Dialect donorDialect, String donorSchema, String table,
            Dialect localDialect, String localSchema) throws SQLException {
        TableDefinition definition = TableDefinition.read(donor, donorDialect, donorSchema, table);
        if (definition.columns().isEmpty()) {
            throw SqlState.UNDEFINED_TABLE.exception("The donor has no table " + donorSchema + "." + table + " to create here");
        }
        return plan(definition, donorDialect, localDialect, localSchema);
    }

    /** Plans the creation of {@code donor}'s table in {@code localSchema}. */
    static TablePlan plan(TableDefinition donor, Dialect donorDialect, Dialect localDialect, String localSchema) throws SQLException {
        Names names = new Names(donorDialect, localDialect, donor, localSchema);
        TableDdl ddl = localDialect.part(TableDdl.class);
        // the same definitions' language (MySQL's and MariaDB's are one): the donor's own definitions
        boolean sameVendor = donorDialect.part(TableDdl.class).getClass() == ddl.getClass();
        List<String> notes = new ArrayList<>();

        List<String> elements = new ArrayList<>();
        for (TableDefinition.Column c : donor.columns()) {
            elements.add(names.column(c.name()) + " " + column(donor, c, sameVendor, ddl, localDialect, notes));
        }
        if (!donor.primaryKey().isEmpty()) {
            boolean named = sameVendor && !ddl.indexNamesPerTable() && donor.primaryKeyName() != null;
            elements.add((named ? "CONSTRAINT " + names.quote(donor.primaryKeyName()) + " " : "")
                    + "PRIMARY KEY (" + names.columns(donor.primaryKey()) + ")");
        }
        List<String> indexes = new ArrayList<>();
        for (TableDefinition.Index index : donor.indexes()) {
            List<String> missing = index.columns().stream().filter(n -> donor.columns().stream().noneMatch(c -> c.name().equals(n)))
                    .toList();
            if (!missing.isEmpty()) {
                notes.add("index " + index.name() + " is on an expression (" + String.join(", ", missing) + "): not created");
                continue;
            }
            String name = names.quote(names.index(index.name()));
            if (index.unique() && index.constraint()) {
                elements.add("CONSTRAINT " + name + " UNIQUE (" + names.columns(index.columns()) + ")");
            } else {
                List<String> cols = new ArrayList<>();
                for (int i = 0; i < index.columns().size(); i++) {
                    cols.add(names.column(index.columns().get(i)) + (index.descending().get(i) ? " DESC" : ""));
                }
                indexes.add("CREATE " + (index.unique() ? "UNIQUE " : "") + "INDEX " + name + " ON " + names.table()
                        + " (" + String.join(", ", cols) + ")");
            }
        }
        List<String> create = new ArrayList<>();
        create.add("CREATE TABLE " + names.table() + " (\n  " + String.join(",\n  ", elements) + "\n)");
        create.addAll(indexes);

        List<String> constraints = new ArrayList<>();
        for (TableDefinition.ForeignKey fk : donor.foreignKeys()) {
            constraints.add("ALTER TABLE " + names.table() + " ADD CONSTRAINT " + names.quote(names.index(fk.name()))
                    + " FOREIGN KEY (" + names.columns(fk.columns()) + ") REFERENCES "
                    + names.referenced(fk.referencedSchema(), fk.referencedTable())
                    + " (" + names.columns(fk.referencedColumns()) + ")" + action("DELETE", fk.onDelete()) + action("UPDATE", fk.onUpdate()));
        }
        return new TablePlan(names.table(), List.copyOf(create), List.copyOf(constraints), List.copyOf(notes));
    }

    /** A column's type and clauses after its name. */
    private static String column(TableDefinition table, TableDefinition.Column c, boolean sameVendor, TableDdl ddl,
            Dialect local, List<String> notes) throws SQLException {
        TableDdl.NativeColumn nat = c.definition();
        String where = table.schema() + "." + table.name() + "." + c.name();
        String type;
        if (sameVendor) {
            type = nat == null ? null : nat.type();
            if (type == null) throw refused(where, c, "its definition cannot be read back exactly");
        } else {
            if (nat != null && nat.computed()) throw refused(where, c, "it is computed by an expression of the donor's database");
            if (c.type() == ValueType.STRING && !c.character()) throw refused(where, c, "no type here holds its values as they are");
            type = ddl.mappedType(c.type(), c, table.indexed(c.name()));
            if (type == null) throw refused(where, c, "no type here holds its values exactly");
            if (nat != null && nat.note() != null) notes.add("column " + c.name() + ": " + nat.note());
        }
        StringBuilder sql = new StringBuilder(type);
        TableDdl.Identity identity = nat == null ? TableDdl.Identity.NONE : nat.identity();
        if (identity != TableDdl.Identity.NONE) {
            sql.append(' ').append(ddl.identityClause(identity));
        } else if (nat != null && nat.defaultSql() != null && !nat.computed()) {
            String def = sameVendor ? nat.defaultSql() : portableDefault(nat.defaultSql(), c, ddl, local);
            if (def != null) sql.append(" DEFAULT ").append(def);
            else notes.add("column " + c.name() + ": default " + nat.defaultSql() + " not kept");
        }
        if (!c.nullable()) sql.append(" NOT NULL");
        return sql.toString();
    }

    private static SQLException refused(String where, TableDefinition.Column c, String why) {
        return SqlState.REFUSED.exception("Column " + where + " of type " + c.typeName() + " cannot be created here: " + why);
    }

    private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?");
    /** A string literal, with a cast after it ({@code 'x'::character varying}). */
    private static final Pattern STRING = Pattern.compile("'((?:[^'\\\\]|''|\\\\.)*)'(::[\\w ]+)?");
    private static final Pattern NOW = Pattern.compile(
            "(?i)(now\\(\\)|current_timestamp(\\(\\d?\\))?|localtimestamp(\\(\\d?\\))?|transaction_timestamp\\(\\))");
    private static final Pattern TODAY = Pattern.compile("(?i)(current_date(\\(\\))?|curdate\\(\\))");

    /**
     * A donor's default as this database writes it, when it is a literal or the current date or
     * time; null for anything else (a function, a sequence), which is not kept.
     */
    static String portableDefault(String donorSql, TableDefinition.Column c, TableDdl ddl, Dialect local) {
        String sql = donorSql.trim();
        while (sql.startsWith("(") && sql.endsWith(")")) sql = sql.substring(1, sql.length() - 1).trim();
        if (sql.equalsIgnoreCase("NULL")) return null;
        if (NOW.matcher(sql).matches() && ValueType.isTemporal(c.type())) return ddl.currentTime(c.type(), c.fraction(), true);
        if (TODAY.matcher(sql).matches() && c.type() == ValueType.DATE) return ddl.currentTime(c.type(), 0, true);
        String text = sql;
        Matcher m = STRING.matcher(sql);
        if (m.matches()) {
            text = m.group(1).replace("''", "'");
            if (!sql.startsWith("'") || text.contains("\\")) return null; // backslash escapes differ between databases
        } else if (!NUMBER.matcher(sql).matches() && !sql.equalsIgnoreCase("true") && !sql.equalsIgnoreCase("false")) {
            return null;
        }
        if (c.type() == ValueType.BOOLEAN) {
            String b = text.toLowerCase(Locale.ROOT);
            if (b.equals("true") || b.equals("1") || b.equals("t")) return "TRUE";
            if (b.equals("false") || b.equals("0") || b.equals("f")) return "FALSE";
            return null;
        }
        if (NUMBER.matcher(text).matches() && (c.type() == ValueType.INTEGER || c.type() == ValueType.DECIMAL || c.type() == ValueType.FLOAT)) {
            return text;
        }
        return m.matches() ? local.stringLiteral(text) : null;
    }

    private static String action(String event, int rule) {
        return switch (rule) {
            case DatabaseMetaData.importedKeyCascade -> " ON " + event + " CASCADE";
            case DatabaseMetaData.importedKeySetNull -> " ON " + event + " SET NULL";
            case DatabaseMetaData.importedKeySetDefault -> " ON " + event + " SET DEFAULT";
            case DatabaseMetaData.importedKeyRestrict -> " ON " + event + " RESTRICT";
            default -> ""; // NO ACTION
        };
    }

    /**
     * Names on the local database: a name the donor folded (written unquoted there) is folded as
     * the local database folds; any other keeps its case. The donor's schema is the local schema;
     * another schema keeps its name.
     */
    private record Names(Dialect donor, Dialect local, TableDefinition definition, String localSchema) {

        String name(String stored) {
            return donor.fold(stored, false).equals(stored) ? local.fold(stored, false) : stored;
        }

        String quote(String stored) {
            return local.quote(name(stored));
        }

        String column(String stored) {
            return quote(stored);
        }

        String columns(List<String> stored) {
            return stored.stream().map(this::quote).collect(Collectors.joining(", "));
        }

        String table() {
            return local.quote(localSchema) + "." + quote(definition.name());
        }

        String referenced(String schema, String name) {
            String s = schema == null || schema.equals(definition.schema()) ? localSchema : name(schema);
            return local.quote(s) + "." + quote(name);
        }

        /**
         * An index's or constraint's name: the donor's, unless the donor's names are per table and
         * the local database's per schema: then prefixed with the table's name.
         */
        String index(String stored) {
            boolean perTableThere = donor.part(TableDdl.class).indexNamesPerTable();
            boolean perTableHere = local.part(TableDdl.class).indexNamesPerTable();
            if (!perTableThere || perTableHere || stored.toLowerCase(Locale.ROOT).startsWith(definition.name().toLowerCase(Locale.ROOT) + "_")) {
                return stored;
            }
            return definition.name() + "_" + stored;
        }
    }
}
