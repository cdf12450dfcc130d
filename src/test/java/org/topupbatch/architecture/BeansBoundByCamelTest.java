package org.topupbatch.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import org.apache.camel.spi.Registry;
import org.junit.jupiter.api.Test;

/**
 * No bean is bound by hand (issue 33): every one comes from a configuration class's
 * {@code @BindToRegistry} methods, bound by Camel Main or, for a short-lived Camel of its own, by
 * Camel's bean post-processor, so that one look at the configuration classes shows every bean.
 * Read on the compiled classes (ArchUnit).
 */
class BeansBoundByCamelTest {

    @Test
    void no_product_class_binds_a_bean_by_hand() {
        JavaClasses product = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(PackageLayersTest.ROOT);
        List<String> byHand = product.stream()
                .filter(c -> !c.getPackageName().startsWith(PackageLayersTest.ROOT + "." + PackageLayersTest.SANDBOX))
                .flatMap(c -> c.getMethodCallsFromSelf().stream())
                .filter(BeansBoundByCamelTest::bindsByHand)
                .map(call -> call.getOrigin().getFullName() + " calls " + call.getTarget().getFullName()
                        + " (" + call.getSourceCodeLocation() + ")")
                .sorted()
                .toList();
        assertThat(byHand).as("beans bound by hand").isEmpty();
    }

    private static boolean bindsByHand(JavaMethodCall call) {
        return call.getTarget().getName().equals("bind") && call.getTargetOwner().isAssignableTo(Registry.class);
    }
}
