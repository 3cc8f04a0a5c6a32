package io.jdbcrepl.intercept;

/**
 * An interceptor that a connection runs only from the first statement that needs it (or from the
 * application's {@code unwrap} of its extension): until then the connection is a pure pass-through,
 * with no interceptor call at all.
 */
public interface StandbyInterceptor extends ConnectionInterceptor {

    /** Whether {@code sql} needs the interceptor: a cheap check, made for each statement until one does. */
    boolean neededFor(String sql);
}
