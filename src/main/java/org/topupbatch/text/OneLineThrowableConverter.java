package org.topupbatch.text;

import ch.qos.logback.classic.pattern.ThrowableProxyConverter;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.StackTraceElementProxy;

/**
 * The log's {@code %ex}: a stack trace keeps its lines, but each exception's message is escaped
 * ({@link OneLine}) like {@code %msg}. A library's exception quoting a request (Vert.x naming the
 * header it refused, with the CR/LF a client put in it) could otherwise forge log lines or write
 * raw NUL and ESC into the log.
 */
public final class OneLineThrowableConverter extends ThrowableProxyConverter {

    static final int MESSAGE_LIMIT = 1_000;

    @Override
    protected String throwableProxyToString(IThrowableProxy tp) {
        return super.throwableProxyToString(tp == null ? null : new Escaped(tp));
    }

    /** The same throwable, its message and its causes' escaped. */
    private record Escaped(IThrowableProxy raw) implements IThrowableProxy {

        @Override
        public String getMessage() {
            return raw.getMessage() == null ? null : OneLine.of(raw.getMessage(), MESSAGE_LIMIT);
        }

        @Override
        public String getClassName() {
            return raw.getClassName();
        }

        @Override
        public StackTraceElementProxy[] getStackTraceElementProxyArray() {
            return raw.getStackTraceElementProxyArray();
        }

        @Override
        public int getCommonFrames() {
            return raw.getCommonFrames();
        }

        @Override
        public IThrowableProxy getCause() {
            return raw.getCause() == null ? null : new Escaped(raw.getCause());
        }

        @Override
        public IThrowableProxy[] getSuppressed() {
            IThrowableProxy[] suppressed = raw.getSuppressed();
            if (suppressed == null) {
                return null;
            }
            IThrowableProxy[] escaped = new IThrowableProxy[suppressed.length];
            for (int i = 0; i < suppressed.length; i++) {
                escaped[i] = new Escaped(suppressed[i]);
            }
            return escaped;
        }

        @Override
        public boolean isCyclic() {
            return raw.isCyclic();
        }
    }
}
