package io.jdbcrepl.config;

import io.jdbcrepl.intercept.SqlState;
import java.sql.SQLException;
import java.util.Locale;

/** Builds the configuration's SQLExceptions, so that every message has the same shape. */
final class ConfigErrors {

    static final String MASK = "****";

    private ConfigErrors() {}

    /** A bad value: the message names the key and the value, or "****" for a secret. */
    static SQLException badValue(String key, String value, String why) {
        return SqlState.INVALID_PARAMETER_VALUE.exception("Invalid value " + quote(key, value) + " for " + key + ": " + why);
    }

    /** A rule across several keys (handlers, peers): the caller writes the whole message. */
    static SQLException invalid(String message) {
        return SqlState.INVALID_PARAMETER_VALUE.exception(message);
    }

    static SQLException unknownKey(String key, String value, String origin) {
        return SqlState.UNDEFINED_OBJECT.exception("Unknown property " + key + "=" + quote(key, value) + origin
                + ": not a jdbc:repl key (see the property table in the README)");
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
