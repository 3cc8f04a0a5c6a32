package io.jdbcrepl.config;

import java.sql.SQLException;
import java.util.Locale;

/** Builds the configuration's SQLExceptions, so that every message has the same shape. */
final class ConfigErrors {

    static final String BAD_VALUE = "22023";
    static final String UNKNOWN_KEY = "42704";
    static final String BAD_URL = "08001";
    static final String MASK = "****";

    private ConfigErrors() {}

    /** A bad value: the message names the key and the value, or "****" for a secret. */
    static SQLException badValue(String key, String value, String why) {
        return new SQLException("Invalid value " + quote(key, value) + " for " + key + ": " + why, BAD_VALUE);
    }

    /** A rule across several keys (handlers, peers): the caller writes the whole message. */
    static SQLException invalid(String message) {
        return new SQLException(message, BAD_VALUE);
    }

    static SQLException unknownKey(String key, String value, String origin) {
        return new SQLException("Unknown property " + key + "=" + quote(key, value) + origin
                + ": not a jdbc:repl key (see the property table in the README)", UNKNOWN_KEY);
    }

    /** The value as it may appear in a message: quoted, or masked for anything password-like. */
    static String quote(String key, String value) {
        return looksSecret(key) ? MASK : "'" + value + "'";
    }

    /**
     * True for keys whose values must never be printed. Wider than the catalogue's secrets on
     * purpose: a misspelt key such as repl.peer.a.pasword still holds a password.
     */
    static boolean looksSecret(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        return k.contains("pass") || k.contains("pasw") || k.contains("pwd") || k.contains("secret")
                || k.contains("token") || k.contains("credential") || k.contains("log.key");
    }
}
