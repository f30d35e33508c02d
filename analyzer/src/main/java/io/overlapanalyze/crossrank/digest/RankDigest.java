package io.overlapanalyze.crossrank.digest;

import io.overlapanalyze.crossrank.RankInput;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serial;
import java.io.Serializable;
import java.io.UncheckedIOException;

/**
 * A rank's {@link CrossRankDigest} in a form that travels by Java serialization (a Spark task's
 * result): the pruned trace and the reduced report in one compact binary encoding
 * ({@link DigestCodec}). The model's columnar stores are not serializable, and would carry their
 * doubling slack; the report records are, but Java serialization of them costs several times the
 * bytes. {@link #toInput()} gives back a {@link RankInput} the cross-rank analysis reads exactly as
 * it reads the digest itself.
 */
public final class RankDigest implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    private final int rank;
    private final byte[] encoded;

    private RankDigest(int rank, byte[] encoded) {
        this.rank = rank;
        this.encoded = encoded;
    }

    /** Prunes one rank's full input ({@link CrossRankDigest#of}) and encodes it. */
    public static RankDigest of(RankInput full) {
        return new RankDigest(full.rank(), DigestCodec.encode(CrossRankDigest.of(full)));
    }

    /** The rank id. */
    public int rank() {
        return rank;
    }

    /** The digest as an input of the cross-rank analysis (decoded anew on each call). */
    public RankInput toInput() {
        return toInput(new SharedValues());
    }

    /**
     * The digest as an input of the cross-rank analysis (decoded anew on each call), its names and process
     * groups taken from {@code shared}: a job's digests decoded with one hold each once.
     */
    public RankInput toInput(SharedValues shared) {
        return DigestCodec.decode(encoded, shared);
    }

    /** Bytes of the encoded digest alone. */
    public int encodedBytes() {
        return encoded.length;
    }

    /** Bytes of this digest under Java serialization (what a task sends to the driver). */
    public long serializedBytes() {
        return serializedBytes(this);
    }

    /** Bytes of any serializable object under Java serialization. */
    public static long serializedBytes(Serializable o) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.size();
    }
}
