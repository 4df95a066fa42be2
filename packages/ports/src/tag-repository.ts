import type { Tag, TagBinding } from "@service-api/domain";

/** Tags of workspaces and their bindings to datasets. */
export interface TagRepository {
  /** Inserts or replaces the tag with this id. */
  save(tag: Tag): Promise<void>;
  /** The tags among these ids that exist, of any workspace and type, in no particular order. */
  findByIds(ids: readonly string[]): Promise<Tag[]>;
  /** The workspace's tags, by type, name (in code point order), then id. */
  listInWorkspace(workspaceId: string): Promise<Tag[]>;
  /**
   * Adds the bindings whose (tag, target) pair is not bound yet, atomically; pairs already bound
   * keep their first binding. Safe under concurrent calls: a pair is never bound twice.
   */
  bind(bindings: readonly TagBinding[]): Promise<void>;
  /** Ids of the tags bound to the target, in binding order. */
  boundTagIds(targetId: string): Promise<string[]>;
}
