package io.jdbcrepl.dialect.mysql;

import io.jdbcrepl.dialect.Dialect;

import java.util.List;

/** A MySQL-family server (MySQL 8, or MariaDB) through MySQL Connector/J. */
public class MySqlDialect extends Dialect {

    @Override
    protected List<String> subprotocols() {
        return List.of("mysql");
    }

    @Override
    public Kind kind() {
        return Kind.MYSQL;
    }

    @Override
    public String quote(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }

    /** Case rules depend on the server ({@code lower_case_table_names}): names are kept as written, matched case-insensitively. */
    @Override
    protected String foldUnquoted(String name) {
        return name;
    }

    // ---- log, mview ----

    @Override
    public boolean schemasAreCatalogs() {
        return true;
    }

    @Override
    public String product() {
        return "MySQL/MariaDB";
    }
}
