package io.jdbcrepl.dialect.h2;

import io.jdbcrepl.ddl.DdlSyntax;

/** H2's DDL: one change per ALTER TABLE; ALTER COLUMN c followed by a definition defines the column again. */
final class H2DdlSyntax implements DdlSyntax {

    @Override
    public String redefine(String from, String to, String definition) {
        return from.equals(to) ? "ALTER COLUMN " + to + " " + definition : null;
    }

    @Override
    public boolean oneChangePerAlter() {
        return true;
    }
}
