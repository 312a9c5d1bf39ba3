import UploadIcon from '@mui/icons-material/Upload';
import { Button } from '@mui/material';
import { useState } from 'react';
import { api } from '@/api/api';
import { useCan } from '@/auth/useCan';
import { ImportDialog } from '@/components/ImportDialog';
import { useAppDispatch } from '@/lib/store';
import { DataGrid } from '@mui/x-data-grid';
import { messages } from '@common/messages';
import { USER_IMPORT_FIELDS, type User } from '@common/schemas/users';
import { BulkBar } from '@/components/BulkBar';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { EditNotices } from '@/components/EditNotices';
import { Editors } from '@/components/Editors';
import { GridFrame, useGridColumns } from '@/components/GridFrame';
import { ExportMenu } from '@/components/ExportMenu';
import { ListPage } from '@/components/ListPage';
import { ListToolbar } from '@/components/ListToolbar';
import { QueryState } from '@/components/QueryState';
import { WithLastView } from '@/components/WithLastView';
import { useGridLayout } from '@/hooks/useGridLayout';
import { useReportedError } from '@/hooks/useReportedError';
import { useRowEditHint } from '@/hooks/useRowEditHint';
import { SetPasswordDialog } from './SetPasswordDialog';
import { useUserColumns } from './userColumns';
import { useListUsersQuery } from './users.api';
import { useUserGrid } from './useUserGrid';
import type { MessageId } from '@/i18n/i18n';
import { undoable, useT } from '@/i18n/useT';

const LABELS: Record<string, MessageId> = {
  username: 'users.fieldUsername',
  email: 'users.fieldEmail',
};

/** The users grid, with the row actions the user may take. */
function UserGrid({ users, isFetching }: { users: User[]; isFetching: boolean }) {
  const t = useT();
  const grid = useUserGrid(users);
  const { may, edit, apiRef, list } = grid;
  const pending = grid.removal.pending;
  const layout = useGridLayout(useGridColumns(useUserColumns(grid)));
  const rowEditHint = useRowEditHint(may.mayEdit);
  const mayImport = useCan('POST', '/api/users');
  const [importing, setImporting] = useState(false);
  const dispatch = useAppDispatch();
  const usersImport = {
    path: '/api/users/import',
    what: t('users.what'),
    fields: USER_IMPORT_FIELDS,
    onImported: () => dispatch(api.util.invalidateTags([{ type: 'User', id: 'LIST' }])),
  };
  return (
    <>
      <ListToolbar
        search={{ value: list.search.typed, onChange: list.search.type }}
        grid="users"
        chooser={layout.chooser}
      >
        {mayImport && (
          <Button startIcon={<UploadIcon />} onClick={() => setImporting(true)}>
            {t('users.import')}
          </Button>
        )}
        <ExportMenu
          path="/api/users/export"
          what={t('users.what')}
          params={list.exportParams}
          columns={list.shownColumns}
        />
      </ListToolbar>
      {grid.refusal.alert}
      {grid.bulk.mayDelete && (
        <BulkBar
          selection={grid.bulk.selection}
          total={grid.bulk.selection.count}
          what={t('users.rows')}
        >
          <Button color="error" onClick={grid.bulk.ask}>
            {t('common.delete')}
          </Button>
        </BulkBar>
      )}
      <Editors editors={edit.editors} nameOf={grid.nameOf} />
      <EditNotices
        edit={edit}
        nameOf={grid.nameOf}
        labelOf={(field) => {
          const label = LABELS[field];
          return label ? t(label) : field;
        }}
      />
      <GridFrame apiRef={apiRef} label={t('users.title')} height={560}>
        <DataGrid
          apiRef={apiRef}
          aria-label={t('users.title')}
          {...edit.gridProps}
          {...list.gridProps}
          {...layout.gridProps}
          {...(grid.bulk.mayDelete ? grid.bulk.selection.gridProps : {})}
          isRowSelectable={({ row }) => grid.bulk.isSelectable(row)}
          columns={layout.columns}
          loading={isFetching}
          isCellEditable={() => may.mayEdit}
          slotProps={rowEditHint.slotProps}
          disableRowSelectionOnClick
        />
      </GridFrame>
      {rowEditHint.hint}
      <ConfirmDialog
        {...grid.removal.dialog}
        title={t('users.deleteTitle')}
        message={
          pending && pending._id === grid.myId
            ? t('users.deleteOwn', { name: pending.username })
            : undoable(
                t('users.deleteQuestion', { name: pending?.username ?? '' }),
                grid.may.mayRestore,
              )
        }
        editors={pending && edit.editors[pending._id]}
      />
      <ConfirmDialog
        open={grid.bulk.asking}
        title={t('users.bulkDeleteTitle')}
        message={grid.bulk.question}
        onConfirm={() => void grid.bulk.remove()}
        onCancel={grid.bulk.cancel}
      />
      {importing && (
        <ImportDialog
          target={usersImport}
          explanation={t('users.importExplanation')}
          onClose={() => setImporting(false)}
        />
      )}
      <ConfirmDialog
        {...grid.factorsReset.dialog}
        title={t('users.resetTitle')}
        confirmLabel={t('users.reset')}
        message={t('users.resetQuestion', { name: grid.factorsReset.pending?.username ?? '' })}
      />
      {grid.password.for && (
        <SetPasswordDialog user={grid.password.for} onClose={grid.password.close} />
      )}
    </>
  );
}

/** `/users`: the users, edited inline row by row, deleted after confirmation. */
export function UsersPage() {
  const t = useT();
  return (
    <ListPage
      title={t('users.title')}
      read={{ path: '/api/users', what: t('users.read') }}
      add={{ label: t('users.add'), to: '/users/add', path: '/api/users' }}
    >
      {(mayAdd) => (
        <WithLastView grid="users">
          <UserList mayAdd={mayAdd} />
        </WithLastView>
      )}
    </ListPage>
  );
}

/** The users through the shared loading, error and empty states. */
function UserList({ mayAdd }: { mayAdd: boolean }) {
  const t = useT();
  const usersQuery = useListUsersQuery();
  useReportedError(messages.users.fetchContext, usersQuery.error);
  // The first load shows the shared bar; a refetch, the grid's own overlay.
  return (
    <QueryState
      query={usersQuery}
      what={t('users.what')}
      empty={t('users.none')}
      emptyAction={mayAdd ? { label: t('users.addOne'), to: '/users/add' } : undefined}
    >
      {(users) => <UserGrid users={users} isFetching={usersQuery.isFetching} />}
    </QueryState>
  );
}
