/**
 * The viewer toolbar of spec section 2: page navigation, zoom, rotation,
 * scroll and view modes, selection tool, properties and print, and the way
 * back. Download, full screen, open file, search and theme switch are
 * deliberately absent. Every control has an accessible name; with a mouse, a
 * tooltip names each icon; on a touch screen, where nothing hovers, each icon
 * has its name written under it instead (viewer.css).
 *
 * On a touch screen (the facility's tablet, a phone) the bar is one row of what a reader uses: the pages, zoom,
 * print, read aloud and close, in plain words under their icons. The rest (the zoom list, rotation, the scroll
 * and view modes, the selection tool, the properties) waits behind one "More" button that opens it as a second
 * row; Escape there closes that row first. With a mouse every control stands in the bar as before.
 */
import {
  ColumnHeightOutlined,
  ColumnWidthOutlined,
  DragOutlined,
  FileOutlined,
  FontSizeOutlined,
  InfoCircleOutlined,
  LeftOutlined,
  MoreOutlined,
  PrinterOutlined,
  ReadOutlined,
  RightOutlined,
  RotateLeftOutlined,
  RotateRightOutlined,
  SoundOutlined,
  TableOutlined,
  ZoomInOutlined,
  ZoomOutOutlined,
} from '@ant-design/icons';
import { Button, Divider, Flex, InputNumber, Radio, Select, Space, Tooltip, Typography } from 'antd';
import { createContext, type ReactNode, useContext, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMediaQuery } from '../lib/useMediaQuery.ts';
import { ZOOM_LEVELS, ZOOM_PRESETS, zoomLabel, zoomSelectValue } from './modes.ts';
import type { ViewerCommands, ViewState } from './useViewer.ts';

export interface ToolbarProps {
  view: ViewState;
  commands: ViewerCommands;
  onProperties(): void;
  onPrint(): void;
  /** Whether the Read aloud bar is open, and its button's action (opens it, or stops reading and closes it). */
  readAloud: { open: boolean; toggle(): void };
  /** The Close button, last in the bar. */
  closeButton: ReactNode;
}

/** A touch screen: names written under the icons, no tooltips (a tap would leave one standing). */
const Touch = createContext(false);

/** A tooltip with a mouse; on a touch screen the control's own written name says the same. */
function Tip({ title, children }: { title: string; children: ReactNode }) {
  const touch = useContext(Touch);
  return touch ? children : <Tooltip title={title}>{children}</Tooltip>;
}

/** The zoom select's options; the presets' names are read in the language shown, so made at each render. */
function zoomOptions(): { value: string; label: string; disabled?: boolean }[] {
  return [
    ...ZOOM_LEVELS.map((level) => ({ value: String(level), label: zoomLabel(level) })),
    ...ZOOM_PRESETS.map((preset) => ({ value: preset.value, label: preset.label })),
  ];
}

function ToolButton(
  props: { label: string; icon: ReactNode; onClick(): void; disabled?: boolean; pressed?: boolean },
) {
  const touch = useContext(Touch);
  return (
    <Tip title={props.label}>
      <Button
        className='viewer-tool'
        aria-label={props.label}
        aria-pressed={props.pressed}
        type={props.pressed ? 'primary' : 'default'}
        icon={props.icon}
        onClick={props.onClick}
        disabled={props.disabled}
      >
        {touch && <span className='viewer-tool-text'>{props.label}</span>}
      </Button>
    </Tip>
  );
}

interface ChoiceOption<T extends string> {
  value: T;
  label: string;
  tip: string;
  icon: ReactNode;
}

function Choice<T extends string>(
  props: { label: string; value: T; options: ChoiceOption<T>[]; onChange(value: T): void },
) {
  return (
    <Radio.Group
      aria-label={props.label}
      optionType='button'
      value={props.value}
      onChange={(event) => props.onChange(event.target.value as T)}
    >
      {props.options.map((option) => (
        <Tip key={option.value} title={option.tip}>
          <Radio.Button value={option.value} aria-label={option.tip}>
            {option.icon} <span className='viewer-choice-text'>{option.label}</span>
          </Radio.Button>
        </Tip>
      ))}
    </Radio.Group>
  );
}

/** The page number field: typed freely, applied on Enter or when leaving it. */
function PageField({ view, commands }: Pick<ToolbarProps, 'view' | 'commands'>) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState<number | null>(view.page);
  useEffect(() => setTyped(view.page), [view.page]);
  const apply = () => {
    if (typed !== null && typed >= 1 && typed <= view.pageCount) commands.goToPage(typed);
    else setTyped(view.page);
  };
  return (
    <Space size={6} align='center'>
      <Tip title={t('viewerTools.pageNumber')}>
        <InputNumber
          aria-label={t('viewerTools.pageNumber')}
          className='viewer-page-input'
          min={1}
          max={Math.max(1, view.pageCount)}
          precision={0}
          controls={false}
          value={typed}
          onChange={(value) => setTyped(typeof value === 'number' ? value : null)}
          onPressEnter={apply}
          onBlur={apply}
        />
      </Tip>
      <Typography.Text aria-label={t('viewerTools.pageCount')} data-testid='page-count'>
        / {view.pageCount}
      </Typography.Text>
      <PageAnnouncer page={view.page} pageCount={view.pageCount} />
    </Space>
  );
}

/**
 * Tells a screen reader the page when it changes (scrolling, the page buttons, Read aloud moving on), not when
 * the document opens: the page field already says where reading starts.
 */
function PageAnnouncer({ page, pageCount }: { page: number; pageCount: number }) {
  const { t } = useTranslation();
  const first = useRef(page);
  const [said, setSaid] = useState('');
  useEffect(() => {
    if (page !== first.current || said) setSaid(t('viewerPage.announce', { page, count: pageCount }));
    // Only a change of page is announced; a new page count alone is not.
  }, [page]);
  return (
    <span className='visually-hidden' role='status' data-testid='page-announcement'>
      {said}
    </span>
  );
}

export function Toolbar({ view, commands, onProperties, onPrint, readAloud, closeButton }: ToolbarProps) {
  const { t } = useTranslation();
  const touch = useMediaQuery('(pointer: coarse)');
  const [moreOpen, setMoreOpen] = useState(false);
  const moreButton = useRef<HTMLButtonElement>(null);
  const zoomValue = zoomSelectValue(view.scale, view.preset);
  const options = zoomValue === null
    ? [...zoomOptions(), { value: 'custom', label: zoomLabel(view.scale), disabled: true }]
    : zoomOptions();
  const pages = (
    <>
      <Space.Compact>
        <ToolButton
          label={t('viewerTools.previous')}
          icon={<LeftOutlined />}
          onClick={commands.previousPage}
          disabled={view.page <= 1}
        />
        <ToolButton
          label={t('viewerTools.next')}
          icon={<RightOutlined />}
          onClick={commands.nextPage}
          disabled={view.page >= view.pageCount}
        />
      </Space.Compact>
      <PageField view={view} commands={commands} />
    </>
  );
  const zoomButtons = (
    <Space.Compact>
      <ToolButton
        label={t('viewerTools.zoomOut')}
        icon={<ZoomOutOutlined />}
        onClick={() => commands.zoomBy(-1)}
      />
      <ToolButton
        label={t('viewerTools.zoomIn')}
        icon={<ZoomInOutlined />}
        onClick={() => commands.zoomBy(1)}
      />
    </Space.Compact>
  );
  const zoomList = (
    <Tip title={t('viewerTools.zoom')}>
      <Select
        aria-label={t('viewerTools.zoom')}
        className='viewer-zoom'
        value={zoomValue ?? 'custom'}
        options={options}
        onChange={commands.setZoom}
        popupMatchSelectWidth={false}
        // Eleven options: all in the page, so a screen reader hears every one.
        virtual={false}
      />
    </Tip>
  );
  const rotation = (
    <Space.Compact>
      <ToolButton
        label={t('viewerTools.rotateLeft')}
        icon={<RotateLeftOutlined />}
        onClick={() => commands.rotateBy(-90)}
      />
      <ToolButton
        label={t('viewerTools.rotateRight')}
        icon={<RotateRightOutlined />}
        onClick={() => commands.rotateBy(90)}
      />
    </Space.Compact>
  );
  const modes = (
    <>
      <Choice
        label={t('viewerTools.scrollMode')}
        value={view.layout.scroll}
        onChange={commands.setScroll}
        options={[
          {
            value: 'vertical',
            label: t('viewerTools.vertical'),
            tip: t('viewerTools.verticalTip'),
            icon: <ColumnHeightOutlined />,
          },
          {
            value: 'horizontal',
            label: t('viewerTools.horizontal'),
            tip: t('viewerTools.horizontalTip'),
            icon: <ColumnWidthOutlined />,
          },
          {
            value: 'wrapped',
            label: t('viewerTools.wrapped'),
            tip: t('viewerTools.wrappedTip'),
            icon: <TableOutlined />,
          },
        ]}
      />
      <Choice
        label={t('viewerTools.viewMode')}
        value={view.layout.view}
        onChange={commands.setView}
        options={[
          {
            value: 'single',
            label: t('viewerTools.single'),
            tip: t('viewerTools.singleTip'),
            icon: <FileOutlined />,
          },
          {
            value: 'dual',
            label: t('viewerTools.dual'),
            tip: t('viewerTools.dualTip'),
            icon: <ReadOutlined />,
          },
        ]}
      />
      <Choice
        label={t('viewerTools.selectionMode')}
        value={view.tool}
        onChange={commands.setTool}
        options={[
          {
            value: 'text',
            label: t('viewerTools.text'),
            tip: t('viewerTools.textTip'),
            icon: <FontSizeOutlined />,
          },
          {
            value: 'hand',
            label: t('viewerTools.hand'),
            tip: t('viewerTools.handTip'),
            icon: <DragOutlined />,
          },
        ]}
      />
    </>
  );
  const readAloudButton = (
    <ToolButton
      label={t('readAloud.button')}
      icon={<SoundOutlined />}
      onClick={readAloud.toggle}
      pressed={readAloud.open}
    />
  );
  const properties = (
    <ToolButton
      label={t('viewerTools.properties')}
      icon={<InfoCircleOutlined />}
      onClick={onProperties}
    />
  );
  const print = <ToolButton label={t('viewerTools.print')} icon={<PrinterOutlined />} onClick={onPrint} />;

  if (touch) {
    return (
      <Touch.Provider value={touch}>
        <div
          role='toolbar'
          aria-label={t('viewerTools.tools')}
          className='viewer-toolbar viewer-toolbar-touch'
          onKeyDown={(event) => {
            // Escape closes the second row first (useViewerExit.ts leaves an Escape already taken alone).
            if (event.key !== 'Escape' || !moreOpen) return;
            event.preventDefault();
            setMoreOpen(false);
            moreButton.current?.focus();
          }}
        >
          <Flex className='viewer-toolbar-row' wrap gap={8} align='center'>
            {pages}
            {zoomButtons}
            {print}
            {readAloudButton}
            <Button
              ref={moreButton}
              className='viewer-tool'
              icon={<MoreOutlined />}
              aria-label={t('viewerTools.more')}
              aria-expanded={moreOpen}
              aria-controls='viewer-more-tools'
              onClick={() => setMoreOpen(!moreOpen)}
            >
              <span className='viewer-tool-text'>{t('viewerTools.more')}</span>
            </Button>
            {closeButton}
          </Flex>
          {moreOpen && (
            <Flex
              id='viewer-more-tools'
              className='viewer-toolbar-row viewer-more-tools'
              wrap
              gap={8}
              align='center'
            >
              {zoomList}
              {rotation}
              {modes}
              {properties}
            </Flex>
          )}
        </div>
      </Touch.Provider>
    );
  }
  return (
    <Touch.Provider value={touch}>
      <Flex
        role='toolbar'
        aria-label={t('viewerTools.tools')}
        className='viewer-toolbar'
        wrap
        gap={8}
        align='center'
      >
        {pages}
        <Divider orientation='vertical' />
        {zoomButtons}
        {zoomList}
        <Divider orientation='vertical' />
        {rotation}
        <Divider orientation='vertical' />
        {modes}
        <Divider orientation='vertical' />
        {readAloudButton}
        {properties}
        {print}
        <Divider orientation='vertical' />
        {closeButton}
      </Flex>
    </Touch.Provider>
  );
}
