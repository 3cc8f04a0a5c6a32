package io.jdbcrepl.dialect.mysql;

import io.jdbcrepl.ddl.TableDdl;
import io.jdbcrepl.ddl.TableDefinition;
import io.jdbcrepl.lcr.ValueType;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * MySQL's and MariaDB's column definitions from {@code information_schema.COLUMNS}
 * ({@code COLUMN_TYPE}: {@code int(11) unsigned}, {@code enum('a','b')}, with the collation). Another
 * database's columns: text longer than 768 characters (or unbounded) is a LONGTEXT, or a
 * VARCHAR(255) in a key or index, whose length InnoDB limits; an instant (a {@code timestamptz}) is
 * a DATETIME holding UTC, as apply stores it, not a TIMESTAMP, which ends in 2038.
 */
final class MySqlTableDdl implements TableDdl {

    /** The longest VARCHAR kept as one here: 768 characters of utf8mb4 fill InnoDB's 3072-byte index key. */
    static final int LONGEST_VARCHAR = 768;
    /** The length a longer or unbounded text gets in a key or index. */
    static final int INDEXED_TEXT = 255;
    static final int LONGEST_VARBINARY = 3072;

    private static final Pattern ON_UPDATE = Pattern.compile("(?i)on update (\\S+)");
    private static final Pattern JSON_CHECK = Pattern.compile("(?i)json_valid\\(`((?:[^`]|``)+)`\\)");
    private static final Pattern CURRENT = Pattern.compile("(?i)current_timestamp(\\(\\d?\\))?");

    @Override
    public Map<String, NativeColumn> nativeColumns(Connection connection, String schema, String table) throws SQLException {
        boolean mariaDb = mariaDb(connection);
        Set<String> json = mariaDb ? jsonColumns(connection, schema, table) : Set.of();
        String sql = "SELECT COLUMN_NAME, COLUMN_TYPE, COLUMN_DEFAULT, EXTRA, GENERATION_EXPRESSION, COLLATION_NAME, DATA_TYPE, DATETIME_PRECISION"
                + " FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION";
        Map<String, NativeColumn> out = new LinkedHashMap<>();
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String name = rs.getString(1);
                    String extra = rs.getString(4) == null ? "" : rs.getString(4);
                    String lowerExtra = extra.toLowerCase(Locale.ROOT);
                    String dataType = rs.getString(7).toLowerCase(Locale.ROOT);
                    // MariaDB's JSON is a LONGTEXT with a json_valid check: JSON again re-creates both
                    String type = json.contains(name) ? "JSON" : rs.getString(2);
                    if (rs.getString(6) != null && !json.contains(name) && !dataType.equals("json")) type += " COLLATE " + rs.getString(6);
                    Matcher onUpdate = ON_UPDATE.matcher(extra);
                    if (onUpdate.find()) type += " ON UPDATE " + onUpdate.group(1);
                    boolean computed = lowerExtra.contains("virtual generated") || lowerExtra.contains("stored generated");
                    if (computed) {
                        type += " GENERATED ALWAYS AS (" + rs.getString(5) + ")" + (lowerExtra.contains("stored") ? " STORED" : " VIRTUAL");
                    }
                    Identity id = lowerExtra.contains("auto_increment") ? Identity.BY_DEFAULT : Identity.NONE;
                    String def = computed ? null : defaultSql(rs.getString(3), lowerExtra.contains("default_generated"), mariaDb);
                    String note = dataType.equals("enum") || dataType.equals("set")
                            ? "its type " + rs.getString(2) + " becomes a text type: the allowed values are not kept" : null;
                    int fraction = rs.getObject(8) == null ? -1 : rs.getInt(8); // the connectors' DECIMAL_DIGITS of a DATETIME(6) is 0
                    out.put(name, new NativeColumn(type, def, id, computed, note, fraction));
                }
            }
        }
        return out;
    }

    /**
     * A column's default as SQL: MariaDB writes literals quoted and expressions as they are, MySQL
     * literals unquoted and expressions marked {@code DEFAULT_GENERATED}.
     */
    private static String defaultSql(String columnDefault, boolean expression, boolean mariaDb) {
        if (columnDefault == null) return null;
        if (mariaDb) return columnDefault.equalsIgnoreCase("NULL") ? null : columnDefault;
        if (!expression) return new MySqlDialect().stringLiteral(columnDefault);
        return CURRENT.matcher(columnDefault).matches() ? columnDefault : "(" + columnDefault + ")";
    }

    private static boolean mariaDb(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT VERSION()")) {
            return rs.next() && rs.getString(1).contains("MariaDB");
        }
    }

    /** MariaDB's JSON columns: those a {@code json_valid} check guards. */
    private static Set<String> jsonColumns(Connection connection, String schema, String table) throws SQLException {
        Set<String> out = new HashSet<>();
        try (PreparedStatement ps = connection.prepareStatement("SELECT CHECK_CLAUSE FROM information_schema.CHECK_CONSTRAINTS"
                + " WHERE CONSTRAINT_SCHEMA = ? AND TABLE_NAME = ?")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Matcher m = JSON_CHECK.matcher(rs.getString(1));
                    if (m.matches()) out.add(m.group(1).replace("``", "`"));
                }
            }
        }
        return out;
    }

    /** Every unique index is a unique constraint of the same name here. */
    @Override
    public Map<String, String> uniqueConstraints(Connection connection, String schema, String table) throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        try (PreparedStatement ps = connection.prepareStatement("SELECT CONSTRAINT_NAME FROM information_schema.TABLE_CONSTRAINTS"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND CONSTRAINT_TYPE = 'UNIQUE'")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) out.put(rs.getString(1), rs.getString(1));
            }
        }
        return out;
    }

    @Override
    public String mappedType(ValueType type, TableDefinition.Column column, boolean indexed) {
        int length = column.length();
        return switch (type) {
            case BOOLEAN -> "BOOLEAN";
            case INTEGER -> switch (column.integerBytes()) {
                case 1 -> "TINYINT";
                case 2 -> "SMALLINT";
                case 4 -> "INT";
                case 8 -> "BIGINT";
                default -> "DECIMAL(20,0)";
            };
            case DECIMAL -> !column.boundedDecimal() ? "DECIMAL(65,30)"
                    : column.size() <= 65 && column.scale() <= 30 ? "DECIMAL(" + column.size() + "," + column.scale() + ")" : null;
            case FLOAT -> column.jdbcType() == java.sql.Types.REAL ? "FLOAT" : "DOUBLE";
            case STRING -> length > 0 && length <= LONGEST_VARCHAR ? "VARCHAR(" + length + ")"
                    : indexed ? "VARCHAR(" + INDEXED_TEXT + ")" : "LONGTEXT";
            case DATE -> "DATE";
            case TIME -> "TIME(" + column.fraction() + ")";
            case TIMESTAMP, TIMESTAMPTZ -> "DATETIME(" + column.fraction() + ")";
            case BINARY -> length > 0 && length <= LONGEST_VARBINARY ? "VARBINARY(" + length + ")"
                    : indexed ? "VARBINARY(" + INDEXED_TEXT + ")" : "LONGBLOB";
            case LARGE_OBJECT -> "LONGBLOB";
            case UUID_ -> "CHAR(36)";
            case JSON -> "JSON";
        };
    }

    @Override
    public String identityClause(Identity identity) {
        return "AUTO_INCREMENT"; // which takes given values, as BY DEFAULT does
    }

    /** A mapped TIMESTAMPTZ (a DATETIME holding UTC) defaults to UTC's time. */
    @Override
    public String currentTime(ValueType type, int fraction, boolean mapped) {
        String digits = "(" + fraction + ")";
        return switch (type) {
            case DATE -> "(CURRENT_DATE)";
            case TIME -> "(CURRENT_TIME" + digits + ")";
            case TIMESTAMPTZ -> mapped ? "(UTC_TIMESTAMP" + digits + ")" : "CURRENT_TIMESTAMP" + digits;
            default -> "CURRENT_TIMESTAMP" + digits;
        };
    }

    @Override
    public boolean indexNamesPerTable() {
        return true;
    }
}
