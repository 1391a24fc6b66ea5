import { newId } from './ids.js';
import type {
  AccountGroup,
  CreateAccountGroupBody,
  ListQuery,
  UpdateAccountGroupBody,
} from '../../api/index.js';
import { orderGroups, validatePlacement } from '../domain/accountGroups.js';
import { invalid, notFound } from '../domain/errors.js';
import { nameKey, requireName } from '../domain/names.js';
import type { AccountGroupRecord } from '../store/accountGroups.js';
import type { Store } from '../store/index.js';
import type { EntityService } from './entities.js';
import { pageOf, sliceList } from './pagination.js';

const toGroup = ({
  id,
  name,
  parentGroupId,
  type,
  createdAt,
}: AccountGroupRecord): AccountGroup => ({
  id,
  name,
  parentGroupId,
  type,
  createdAt,
});

/** Account groups: trees of one account type, at most five levels deep. */
export class AccountGroupService {
  constructor(
    private readonly store: Store,
    private readonly entities: EntityService,
  ) {}

  async list(organizationId: string, entityId: string, query: ListQuery) {
    await this.entities.get(organizationId, entityId);
    return sliceList(
      pageOf(query),
      orderGroups(await this.store.accountGroups.all(entityId)).map(toGroup),
    );
  }

  async get(organizationId: string, entityId: string, id: string): Promise<AccountGroup> {
    await this.entities.get(organizationId, entityId);
    return toGroup(this.find(await this.store.accountGroups.all(entityId), id));
  }

  async create(
    organizationId: string,
    entityId: string,
    body: CreateAccountGroupBody,
  ): Promise<AccountGroup> {
    await this.entities.get(organizationId, entityId);
    const name = requireName(body.name, 'name');
    return this.store.transaction(async () => {
      await this.entities.lockExclusively(entityId);
      const groups = await this.store.accountGroups.all(entityId);
      const parentGroupId = body.parentGroupId ?? null;
      validatePlacement({ id: null, type: body.type }, parentGroupId, groups);
      requireFreeName(groups, { id: null, type: body.type, parentGroupId }, name);
      const group: AccountGroup = {
        id: newId(),
        name,
        parentGroupId,
        type: body.type,
        createdAt: new Date().toISOString(),
      };
      await this.store.accountGroups.insert(entityId, group, nameKey(name));
      return group;
    });
  }

  /** Renames and moves a group (with its subtree); its type is fixed. */
  async update(
    organizationId: string,
    entityId: string,
    id: string,
    body: UpdateAccountGroupBody,
  ): Promise<AccountGroup> {
    await this.entities.get(organizationId, entityId);
    if ('type' in body)
      throw invalid('type is fixed after creation; only name and parentGroupId change');
    return this.store.transaction(async () => {
      await this.entities.lockExclusively(entityId);
      const groups = await this.store.accountGroups.all(entityId);
      const group = this.find(groups, id);
      const name = body.name === undefined ? group.name : requireName(body.name, 'name');
      const parentGroupId =
        body.parentGroupId === undefined ? group.parentGroupId : body.parentGroupId;
      if (parentGroupId !== group.parentGroupId) validatePlacement(group, parentGroupId, groups);
      requireFreeName(groups, { id, type: group.type, parentGroupId }, name);
      const updated = toGroup({ ...group, name, parentGroupId });
      await this.store.accountGroups.update(updated, nameKey(name));
      return updated;
    });
  }

  /** Deletes a group; its child groups and member accounts move up to its parent. */
  async delete(organizationId: string, entityId: string, id: string): Promise<void> {
    await this.entities.get(organizationId, entityId);
    await this.store.transaction(async () => {
      await this.entities.lockExclusively(entityId);
      const group = this.find(await this.store.accountGroups.all(entityId), id);
      await this.store.accountGroups.reparentChildren(entityId, id, group.parentGroupId);
      await this.store.accounts.regroupMembers(entityId, id, group.parentGroupId);
      await this.store.accountGroups.delete(id);
    });
  }

  private find(groups: AccountGroupRecord[], id: string): AccountGroupRecord {
    const group = groups.find((g) => g.id === id);
    if (!group) throw notFound('account group');
    return group;
  }
}

/** Sibling names are unique per type, case-insensitively. */
function requireFreeName(
  groups: readonly AccountGroupRecord[],
  place: { id: string | null; type: string; parentGroupId: string | null },
  name: string,
): void {
  const clash = groups.find(
    (g) =>
      g.id !== place.id &&
      g.type === place.type &&
      g.parentGroupId === place.parentGroupId &&
      nameKey(g.name) === nameKey(name),
  );
  if (clash) throw invalid(`name: a sibling ${place.type} group is already named "${clash.name}"`);
}
