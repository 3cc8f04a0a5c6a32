package io.jdbcrepl.dialect.h2;

import io.jdbcrepl.dialect.Dialect;

import java.util.List;
import java.util.Locale;

/** H2 2.x, embedded or over TCP. */
public class H2Dialect extends Dialect {

    @Override
    protected List<String> subprotocols() {
        return List.of("h2");
    }

    @Override
    protected String foldUnquoted(String name) {
        return name.toUpperCase(Locale.ROOT);
    }

    // ---- log, mview ----

    @Override
    public String product() {
        return "H2";
    }

    // ---- capture ----

    @Override
    protected List<Object> parts() {
        return List.of(new H2SqlSyntax(), new H2LockingSql());
    }
}
