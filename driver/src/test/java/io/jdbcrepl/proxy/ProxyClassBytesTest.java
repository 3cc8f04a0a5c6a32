package io.jdbcrepl.proxy;

import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The proxy classes the build writes list their methods by name and descriptor, not in reflection's
 * order (which HotSpot changes from one JVM to the next): two builds make the same driver jar
 * (docs/architecture.md, "Reproducible jar").
 */
class ProxyClassBytesTest {

    static Stream<Arguments> proxyClasses() {
        return Stream.of(Arguments.of(ConnectionProxy.class, false), Arguments.of(StatementProxy.class, false),
                Arguments.of(PreparedStatementProxy.class, false), Arguments.of(PreparedStatementProxy.class, true),
                Arguments.of(CallableStatementProxy.class, false), Arguments.of(CallableStatementProxy.class, true),
                Arguments.of(ResultSetProxy.class, false), Arguments.of(DatabaseMetaDataProxy.class, false));
    }

    @ParameterizedTest
    @MethodSource("proxyClasses")
    void methodsAreWrittenInNameAndDescriptorOrder(Class<?> base, boolean recording) {
        List<String> methods = methods(bytes(base, recording));
        assertThat(methods).as("methods of %s", ProxyFactory.proxyClassName(base, recording)).hasSizeGreaterThan(10);
        assertThat(methods).isSorted();
    }

    private static byte[] bytes(Class<?> base, boolean recording) {
        try (DynamicType.Unloaded<?> unloaded = ProxyFactory.generate(base, recording)) {
            return unloaded.getBytes();
        }
    }

    /** "name descriptor" of each method but constructors and the static initializer, in class file order. */
    private static List<String> methods(byte[] classFile) {
        List<String> methods = new ArrayList<>();
        new ClassReader(classFile).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                if (!name.startsWith("<")) methods.add(name + " " + descriptor);
                return null;
            }
        }, ClassReader.SKIP_CODE);
        return methods;
    }
}
