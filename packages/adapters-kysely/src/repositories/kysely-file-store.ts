import type { FileStore } from "@service-api/ports";
import type { Kysely } from "kysely";
import type { DatabaseSchema } from "../schema.js";

/** Files' bytes in `upload_file_contents`, one row per file, deleted with the file's row. */
export class KyselyFileStore implements FileStore {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  async put(fileId: string, bytes: Uint8Array): Promise<void> {
    const row = { file_id: fileId, bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
    await this.db
      .insertInto("upload_file_contents")
      .values(row)
      .onConflict((conflict) => conflict.column("file_id").doUpdateSet({ bytes: row.bytes }))
      .execute();
  }

  async get(fileId: string): Promise<Uint8Array | undefined> {
    const [row] = await this.db
      .selectFrom("upload_file_contents")
      .select("bytes")
      .where("file_id", "=", fileId)
      .execute();
    return row && new Uint8Array(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength);
  }
}
