/**
 * The JDBC proxies. Hand-written abstract base classes hold only the intercepted methods; Byte
 * Buddy generates, once per JDBC interface (never per vendor class), a final subclass that
 * forwards every other interface method, JDBC 4.2 default methods included, to the real
 * driver's object through a field. With no interceptor the hot path is a null check and a call.
 */
package io.jdbcrepl.proxy;
