package io.jdbcrepl.sql;

/** A query, DDL (except TRUNCATE) or session statement: it changes no table rows; pass it through. */
public record NotDml() implements Analysis {

    static final NotDml INSTANCE = new NotDml();
}
