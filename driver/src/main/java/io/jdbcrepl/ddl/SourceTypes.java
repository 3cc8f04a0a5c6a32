package io.jdbcrepl.ddl;

import io.jdbcrepl.ddl.TableDdl.Identity;
import io.jdbcrepl.ddl.TableDdl.NativeColumn;
import io.jdbcrepl.ddl.TableDefinition;
import io.jdbcrepl.ddl.Ddl.SourceType;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.lcr.ValueType;

import java.sql.Types;
import java.util.List;

/**
 * A type name of a DDL statement as the join sees such a column ({@link TableDefinition.Column}: its
 * JDBC type, size, scale and portable type), so that the target writes it with
 * {@link io.jdbcrepl.ddl.TableDdl#mappedType}. The names of all three databases; where one name
 * means different things, the source's {@link DdlSyntax} or {@link Dialect} says which.
 */
final class SourceTypes {

    private SourceTypes() {
    }

    /**
     * The type written {@code base}, {@code tail} and {@code args} on {@code from} ({@code text} as written),
     * null for one not translated.
     *
     * @param base its name, lower case, of one or more words ({@code double precision}, {@code character varying})
     * @param tail {@code " with time zone"}, {@code " unsigned"} or ""
     * @param args its length, precision and scale, or fraction, as written
     */
    static SourceType of(String base, String tail, List<Integer> args, String text, Dialect from) {
        DdlSyntax syntax = from.part(DdlSyntax.class);
        int first = args.isEmpty() ? -1 : args.get(0);
        Identity identity = Identity.NONE;
        int jdbc;
        String typeName = base + tail;
        int size = 0;
        int scale = 0;
        int fraction = -1;
        switch (base) {
            case "bool", "boolean" -> jdbc = Types.BOOLEAN;
            case "tinyint" -> jdbc = first == 1 ? Types.BOOLEAN : Types.TINYINT; // MySQL's boolean, as its connectors read it
            case "smallint", "int2" -> jdbc = Types.SMALLINT;
            case "mediumint", "int", "integer", "int4" -> jdbc = Types.INTEGER;
            case "bigint", "int8" -> jdbc = Types.BIGINT;
            case "smallserial", "serial2", "serial", "serial4", "bigserial", "serial8" -> {
                jdbc = base.startsWith("small") || base.equals("serial2") ? Types.SMALLINT
                        : base.startsWith("big") || base.equals("serial8") ? Types.BIGINT : Types.INTEGER;
                identity = Identity.BY_DEFAULT;
            }
            case "decimal", "numeric", "dec" -> {
                jdbc = Types.NUMERIC;
                int[] precision = args.isEmpty() ? syntax.defaultDecimal() : new int[] {first, args.size() > 1 ? args.get(1) : 0};
                if (precision != null) {
                    size = precision[0];
                    scale = precision[1];
                }
            }
            case "real", "float4" -> jdbc = Types.REAL;
            case "double", "double precision", "float8" -> jdbc = Types.DOUBLE;
            case "float" -> jdbc = (args.isEmpty() ? syntax.floatIsReal() : first <= 24) ? Types.REAL : Types.DOUBLE;
            case "char", "character", "nchar", "bpchar", "varchar", "character varying", "nvarchar", "varchar2" -> {
                jdbc = base.contains("var") ? Types.VARCHAR : Types.CHAR;
                size = args.isEmpty() ? (jdbc == Types.CHAR ? 1 : 0) : first;
            }
            case "text", "tinytext", "mediumtext", "longtext", "clob", "character large object" -> jdbc = Types.CLOB;
            case "date" -> jdbc = Types.DATE;
            case "time" -> {
                if (!tail.isEmpty()) return null; // a time with a zone has no portable type
                jdbc = Types.TIME;
                fraction = args.isEmpty() ? syntax.defaultFraction(ValueType.TIME) : first;
            }
            case "timestamp", "datetime", "timestamptz" -> {
                boolean instant = base.equals("timestamptz") || !tail.isEmpty() || base.equals("timestamp") && from.timestampInSessionZone(base);
                jdbc = instant ? Types.TIMESTAMP_WITH_TIMEZONE : Types.TIMESTAMP;
                typeName = instant ? "timestamptz" : base;
                fraction = args.isEmpty() ? syntax.defaultFraction(instant ? ValueType.TIMESTAMPTZ : ValueType.TIMESTAMP) : first;
            }
            case "bytea", "blob", "tinyblob", "mediumblob", "longblob", "binary large object" -> jdbc = Types.BLOB;
            case "varbinary", "binary varying", "binary" -> {
                jdbc = base.equals("binary") ? Types.BINARY : Types.VARBINARY;
                size = args.isEmpty() ? (jdbc == Types.BINARY ? 1 : 0) : first;
            }
            case "json", "jsonb", "uuid" -> jdbc = Types.OTHER;
            default -> {
                return null;
            }
        }
        if (fraction >= 0) scale = fraction;
        ValueType value = ValueType.of(jdbc, typeName);
        TableDefinition.Column column = new TableDefinition.Column(null, jdbc, typeName, size, scale, true, value,
                new NativeColumn(text, null, identity, false, null, fraction));
        return new SourceType(text, column, identity);
    }
}
