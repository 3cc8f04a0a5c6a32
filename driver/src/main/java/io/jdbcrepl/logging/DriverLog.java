package io.jdbcrepl.logging;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The driver's log: SLF4J when the application has it (the API is an optional dependency), else
 * java.util.logging under {@code io.jdbcrepl}. Messages never carry passwords.
 */
public final class DriverLog {

    private static final boolean SLF4J = present("org.slf4j.LoggerFactory");

    private final String name;
    private final Object slf4j;
    private final Logger jul;

    private DriverLog(String name) {
        this.name = name;
        this.slf4j = SLF4J ? org.slf4j.LoggerFactory.getLogger(name) : null;
        this.jul = SLF4J ? null : Logger.getLogger(name);
    }

    public static DriverLog of(Class<?> type) {
        return new DriverLog(type.getName());
    }

    private static boolean present(String className) {
        try {
            Class.forName(className, false, DriverLog.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    public void warn(String message) {
        if (slf4j != null) ((org.slf4j.Logger) slf4j).warn(message);
        else jul.log(Level.WARNING, message);
    }

    public void warn(String message, Throwable t) {
        if (slf4j != null) ((org.slf4j.Logger) slf4j).warn(message, t);
        else jul.log(Level.WARNING, message, t);
    }

    public void error(String message, Throwable t) {
        if (slf4j != null) ((org.slf4j.Logger) slf4j).error(message, t);
        else jul.log(Level.SEVERE, message, t);
    }

    public void info(String message) {
        if (slf4j != null) ((org.slf4j.Logger) slf4j).info(message);
        else jul.log(Level.INFO, message);
    }

    public void debug(String message) {
        if (slf4j != null) ((org.slf4j.Logger) slf4j).debug(message);
        else jul.log(Level.FINE, message);
    }

    @Override
    public String toString() {
        return "DriverLog[" + name + "]";
    }
}
