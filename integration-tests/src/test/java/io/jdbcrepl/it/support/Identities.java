package io.jdbcrepl.it.support;

import java.sql.Connection;
import java.sql.Statement;

/**
 * Where a returned object leads, as comparable text: the object the test holds, null, or another
 * one (through a proxy, that is a leaked vendor object).
 */
public final class Identities {

    private Identities() {
    }

    public static String whichConnection(Connection returned, Connection held) {
        return returned == null ? "null"
                : returned == held ? "the connection" : "another connection: " + returned.getClass().getName();
    }

    public static String whichStatement(Statement returned, Statement held) {
        return returned == null ? "null"
                : returned == held ? "the statement" : "another statement: " + returned.getClass().getName();
    }
}
