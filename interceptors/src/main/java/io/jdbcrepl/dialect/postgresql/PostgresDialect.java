package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.lcr.ValueType;

import java.util.List;

/** PostgreSQL 12+, through pgjdbc. */
public class PostgresDialect extends Dialect {

    @Override
    protected List<String> subprotocols() {
        return List.of("postgresql");
    }

    /** PostgreSQL folds only A-Z (in multibyte encodings). */
    @Override
    protected String foldUnquoted(String name) {
        char[] c = name.toCharArray();
        for (int i = 0; i < c.length; i++) {
            if (c[i] >= 'A' && c[i] <= 'Z') c[i] = (char) (c[i] + ('a' - 'A'));
        }
        return new String(c);
    }

    // ---- log, mview ----

    @Override
    public String product() {
        return "PostgreSQL";
    }

    // ---- capture ----

    @Override
    protected List<Object> parts() {
        return List.of(new PostgresSqlSyntax());
    }

    // ---- values ----

    @Override
    public String readValue(ValueType type, String columnSql) {
        return type == ValueType.LARGE_OBJECT ? LargeObjects.content(columnSql) : columnSql;
    }

    @Override
    public String writeValue(ValueType type, String placeholder) {
        return type == ValueType.LARGE_OBJECT ? LargeObjects.create(placeholder) : placeholder;
    }
}
